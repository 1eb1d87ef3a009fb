// The log journal: the lines a table's log shows, kept from one state message to the next.
// table.js owns one (the replay page rebuilds lines from a history); a game client only says
// how its events read, by exporting eventLines(ctx, event, message) -> [string, ...]
// (`message` is the state the event arrived with, for names that live in the view). A game
// whose log is part of its view (Hanabi) exports logLines(message, ctx) instead.

// The lines for a whole history ([{version, events}, ...]) as the renderer reads it.
export function historyLines(renderer, ctx, message, history) {
  if (renderer && renderer.eventLines) {
    return history.flatMap((entry) => (entry.events || []).flatMap((event) => renderer.eventLines(ctx, event, message)));
  }
  if (renderer && renderer.logLines) return renderer.logLines({ ...message, history }, ctx);
  return [];
}

// Events are appended once per version; the history sent on (re)connect rebuilds the whole
// log, as this seat may see it.
export function createJournal() {
  let table = null;
  let version = -1;
  let lines = [];
  return {
    lines(message, renderer, ctx) {
      if (!renderer || !renderer.eventLines) return renderer && renderer.logLines ? renderer.logLines(message, ctx) : lines;
      if (table !== message.table.id) { table = message.table.id; version = -1; lines = []; }
      if (message.history) {
        lines = historyLines(renderer, ctx, message, message.history);
        version = message.version;
      } else if (message.version > version) {
        version = message.version;
        for (const event of message.events || []) lines.push(...renderer.eventLines(ctx, event, message));
      }
      return lines;
    },
  };
}
