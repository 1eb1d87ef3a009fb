// The log journal: the lines a table's log shows, kept from one state message to the next.
// table.js owns one (the replay page rebuilds lines from a history); a game client only says
// how its events read, by exporting eventLines(ctx, event, message) -> [string, ...]
// (`message` is the state the event arrived with, for names that live in the view). A game
// whose log is part of its view (Hanabi) exports logLines(message, ctx) instead.
//
// A game may also fold a run of small moves into one line that each further move of the run
// updates in place, rather than adding a line per move (Block and Guess: a builder's nudges
// of their build read "Ana adjusts their build: 5 moves"). It exports logRun(event) ->
// {join: key} (the event joins the open run `key`, or opens it), {close: key} (the run ends;
// the event gets its own lines) or null, and runLine(ctx, events, message) -> the run's one
// line for its events so far. Other lines may come between a run's moves (another builder's);
// the run's line stays where the run began. A log that only updated a line has not grown,
// so the live region does not read it again (table.js).

// Lines for events, in order, into `log` ({lines, runs}), folding runs as the renderer says.
function addEvents(renderer, ctx, message, events, log) {
  for (const event of events) {
    const run = renderer.logRun && renderer.runLine ? renderer.logRun(event) : null;
    if (run && run.join !== undefined) {
      const open = log.runs.get(run.join);
      if (open) {
        open.events.push(event);
        log.lines[open.index] = renderer.runLine(ctx, open.events, message);
      } else {
        log.runs.set(run.join, { index: log.lines.length, events: [event] });
        log.lines.push(renderer.runLine(ctx, [event], message));
      }
      continue;
    }
    if (run && run.close !== undefined) log.runs.delete(run.close);
    log.lines.push(...renderer.eventLines(ctx, event, message));
  }
  return log;
}

const emptyLog = () => ({ lines: [], runs: new Map() });

// The lines for a whole history ([{version, events}, ...]) as the renderer reads it.
export function historyLines(renderer, ctx, message, history) {
  if (renderer && renderer.eventLines) {
    return addEvents(renderer, ctx, message, history.flatMap((entry) => entry.events || []), emptyLog()).lines;
  }
  if (renderer && renderer.logLines) return renderer.logLines({ ...message, history }, ctx);
  return [];
}

// Events are appended once per version; the history sent on (re)connect rebuilds the whole
// log, as this seat may see it.
export function createJournal() {
  let table = null;
  let version = -1;
  let log = emptyLog();
  return {
    lines(message, renderer, ctx) {
      if (!renderer || !renderer.eventLines) return renderer && renderer.logLines ? renderer.logLines(message, ctx) : log.lines;
      if (table !== message.table.id) { table = message.table.id; version = -1; log = emptyLog(); }
      if (message.history) {
        log = addEvents(renderer, ctx, message, message.history.flatMap((entry) => entry.events || []), emptyLog());
        version = message.version;
      } else if (message.version > version) {
        version = message.version;
        addEvents(renderer, ctx, message, message.events || [], log);
      }
      return log.lines;
    },
  };
}
