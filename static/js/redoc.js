// Starts ReDoc on /redoc (a file, not an inline script, for the Content-Security-Policy).
const root = document.getElementById("redoc");
window.Redoc.init(root.dataset.url, { hideDownloadButton: false, disableSearch: true }, root);
