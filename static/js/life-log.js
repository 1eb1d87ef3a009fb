// Lines the platform adds to a game's log (the table page and the replay page): a move the
// server played because time ran out, a resignation, a game ended as abandoned. Each is put
// right after the lines of the action it belongs to. The game's renderer makes the other
// lines (logLines); these only need where that action's lines end.
import { t } from "./i18n.js";

// How a game that ended before its end ended (a resignation, a vote, everyone gone), in
// words; null for a game played to its end (its board draws its own result). The table page
// heads the board with it; the table screen shows it where the result would be.
export function endedEarly(outcome, seatName) {
  const details = (outcome && outcome.details) || {};
  if (details.end === "resigned") return t(details.cooperative ? "life.end.resigned_coop" : "life.end.resigned", { name: seatName(details.seat) });
  if (details.end === "abandoned") return t(`life.end.abandoned_${details.reason}`);
  return null;
}

const PLATFORM_EVENTS = new Set(["resigned", "abandoned", "window_closed"]);

// The line for a history entry {version, source, by, events}, or null for a player's move.
export function platformLine(entry, seatName) {
  const name = entry.by !== undefined && entry.by !== null && entry.by >= 0 ? seatName(entry.by) : "";
  if (entry.source === "timeout") return t("life.log.timeout", { name });
  if (entry.source === "resign") {
    const resigned = (entry.events || []).find((e) => e.type === "resigned");
    return t("life.log.resigned", { name: resigned ? seatName(resigned.seat) : name });
  }
  if (entry.source === "vote") return t("life.log.abandoned_vote");
  if (entry.source === "empty") return t("life.log.abandoned_empty");
  return null;
}

// Where each platform line goes: after `count(prefix)` lines, where count gives how many
// lines the renderer makes for the history up to and including that entry. Renderers that
// build the log from the view rather than the history (Hanabi) give the same count for any
// prefix: then each action is taken to make one line.
export function markersFor(history, count, seatName) {
  const out = [];
  const marked = history.map((entry, i) => [entry, i]).filter(([entry]) => platformLine(entry, seatName));
  if (!marked.length) return out;
  const full = count(history.length);
  const ignoresHistory = history.length > 0 && count(0) === full;
  let actions = 0;
  const upTo = [];
  for (const entry of history) {
    if (!(entry.events || []).some((e) => PLATFORM_EVENTS.has(e.type))) actions += 1;
    upTo.push(actions);
  }
  for (const [entry, i] of marked) {
    out.push({ version: entry.version, after: ignoresHistory ? upTo[i] : count(i + 1), text: platformLine(entry, seatName) });
  }
  return out;
}

// The renderer's lines with the platform lines put in their places.
export function merge(lines, markers) {
  if (!markers.length) return lines;
  const out = [];
  const sorted = [...markers].sort((a, b) => a.after - b.after || a.version - b.version);
  let m = 0;
  for (let i = 0; i <= lines.length; i++) {
    while (m < sorted.length && sorted[m].after <= i) out.push(sorted[m++].text);
    if (i < lines.length) out.push(lines[i]);
  }
  while (m < sorted.length) out.push(sorted[m++].text);
  return out;
}
