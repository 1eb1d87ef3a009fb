// Starts Swagger UI on /docs (a file, not an inline script, for the Content-Security-Policy).
const root = document.getElementById("swagger-ui");
window.ui = window.SwaggerUIBundle({
  url: root.dataset.url,
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null, // never send our schema to an outside validator
  presets: [window.SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
