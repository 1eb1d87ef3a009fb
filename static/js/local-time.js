// Dates and times in the viewer's own time zone. The server writes each moment as
// <time datetime="2026-11-27T23:40:00+00:00">2026-11-27 23:40 UTC</time> (an instant with its
// zone; the text marked UTC for a page read without scripts); this module rewrites the text
// in the browser's zone and the page's language, with the zone's short name, so that nobody
// has to work out what "23:40" meant where they are.
const FORMAT = { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" };

export function localTime(iso, lang = document.documentElement.lang || "es") {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  return new Intl.DateTimeFormat(lang, FORMAT).format(at);
}

export function showLocalTimes(root = document) {
  for (const node of root.querySelectorAll("time[datetime]")) {
    const text = localTime(node.getAttribute("datetime"));
    if (text === null) continue; // not a moment we can read: the server's UTC text stays
    node.title = node.textContent; // the UTC time, for whoever needs to compare notes
    node.textContent = text;
  }
}

showLocalTimes();
