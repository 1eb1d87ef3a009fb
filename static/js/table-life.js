// The table's life around the game (table.js calls in here): the clock in the banner, who
// is away and for how long, who is watching, the spectator link, resigning, votes, the
// rematch invitation, the replay link, chat lines (player, spectator and system lines,
// always as text, never as HTML) and the automatic moves in the log.
import { api } from "./api.js";
import { andList, el, t } from "./i18n.js";
import { historyLines } from "./journal.js";
import { markersFor, merge, platformLine } from "./life-log.js";
import { withCopy } from "./ui/copy.js";

const $ = (id) => document.getElementById(id);
const JUST_LEFT_SECONDS = 5; // under this a seat away "has just left"

export function createLife({ tableId, me, seatName, showError, errorText, renderer }) {
  let last = null;
  let receivedAt = 0; // performance.now() when `last` arrived (clocks count down from it)
  let watchUrl = null;
  let watchFor = undefined; // the seat the spectator link was fetched for
  let confirmResign = false;
  let markers = [];
  let markedTo = 0; // the newest version whose platform line is placed

  const since = () => (performance.now() - receivedAt) / 1000;
  const clockText = (seconds) => {
    const s = Math.max(0, Math.ceil(seconds));
    return s >= 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : `${s} s`;
  };
  // a seat that has just left reads so ("away for 0 s" read like a fault); after that the
  // duration counts up, every second, from what the last message said
  const awayText = (seconds) => (seconds < JUST_LEFT_SECONDS ? t("life.away_just_left")
    : seconds < 60 ? t("life.away_seconds", { n: Math.floor(seconds) })
      : seconds < 3600 ? t("life.away_minutes", { n: Math.floor(seconds / 60) })
        : t("life.away_hours", { n: Math.floor(seconds / 3600) }));
  const proposalName = (name) => t(`vote.proposal.${name}`);

  async function post(path, body) {
    try { return await api("POST", path, body); }
    catch (error) { showError(errorText(error)); return null; }
  }

  async function refreshWatchUrl() {
    watchFor = last.seat;
    try { watchUrl = (await api("GET", `/api/tables/${tableId}`)).watch_url; }
    catch (error) { watchUrl = null; }
    renderPanel();
  }

  // ---------------------------------------------------------------- the clock

  function renderClock() {
    const banner = $("banner");
    if (!banner || !last) return;
    let node = $("life-clock");
    const clock = last.clock;
    if (!clock || clock.mode === "none" || last.table.status !== "playing" || !clock.running.length) {
      if (node) node.remove();
      return;
    }
    if (!node || node.parentNode !== banner) {
      // ticking text stays out of the banner's live region (it would be read every second)
      node = el("span", { id: "life-clock", class: "life-clock", "aria-hidden": "true" });
      banner.append(" ", node);
    }
    const left = since();
    const parts = clock.running.map((seat) => {
      const remaining = Math.max(0, Number(clock.remaining[String(seat)] ?? 0) - left);
      const mine = seat === last.seat;
      return el("span", { class: `life-time${mine ? " mine" : ""}${remaining <= 10 ? " low" : ""}`, dataset: { seat } },
        `${mine ? t("life.clock.you") : seatName(seat)} ${clockText(remaining)}`);
    });
    node.replaceChildren(el("span", { class: "life-mode" }, clock.mode === "chess"
      ? t("life.clock.chess", { inc: clock.increment_seconds }) : t("life.clock.turn")), ...parts);
  }

  // ---------------------------------------------------------------- seats and watchers

  function seatExtras(seat) {
    if (!last) return [];
    const out = [];
    if (seat.player && !seat.connected && seat.away_for !== null && seat.away_for !== undefined
        && last.table.status === "playing") {
      out.push(el("span", { class: "life-away", dataset: { away: String(seat.away_for) } }, awayText(seat.away_for + since())));
    }
    const clock = last.clock;
    // a chess clock's bank for the seats not on the move (those on the move have their
    // countdown badge, and the clock in the banner)
    if (clock && clock.mode === "chess" && seat.player && last.table.status === "playing"
        && !clock.running.includes(seat.seat)) {
      out.push(el("span", { class: "life-bank", title: t("life.bank") }, clockText(clock.banks[seat.seat])));
    }
    return out;
  }

  // the line under the seat list (table.js puts it there each time it draws the seats)
  function watchersLine() {
    if (!last) return null;
    const watching = last.table.spectators || { count: 0, names: [] };
    const others = watching.count - watching.names.length;
    // spectators without a name are counted, never shown as a blank or a dash
    const text = watching.count === 0 ? t("life.nobody_watching")
      : !watching.names.length ? t("life.watching_nameless", { n: watching.count })
        : t("life.watching", { names: andList(watching.names), n: watching.count })
          + (others > 0 ? ` ${t("life.watching_more", { n: others })}` : "");
    return el("p", { class: "life-watchers muted", id: "life-watchers" }, text);
  }

  // ---------------------------------------------------------------- the panel

  function votePanel() {
    const vote = last.vote;
    if (!vote) return null;
    const mine = last.seat;
    const left = Math.max(0, vote.remaining - since());
    const mayAnswer = mine !== null && vote.voters.includes(mine) && !vote.yes.includes(mine) && !vote.no.includes(mine);
    return el("div", { class: "life-vote", role: "group", "aria-label": t("life.vote") },
      el("p", {}, t("life.vote_open", { name: seatName(vote.by), proposal: proposalName(vote.proposal) })),
      el("p", { class: "muted" }, t("life.vote_count", { yes: vote.yes.length, n: vote.voters.length, s: Math.ceil(left) })),
      mayAnswer ? el("div", { class: "row" },
        el("button", { id: "vote-yes", onclick: () => post(`/api/tables/${tableId}/votes/${vote.id}`, { yes: true }) }, t("life.vote_yes")),
        el("button", { id: "vote-no", class: "secondary", onclick: () => post(`/api/tables/${tableId}/votes/${vote.id}`, { yes: false }) }, t("life.vote_no"))) : null);
  }

  function absentNow() {
    const grace = Number(last.table.options.absent_grace_seconds ?? 120);
    return last.table.seats.filter((s) => s.player && !s.connected && s.away_for !== null && s.away_for !== undefined
      && s.away_for + since() >= grace);
  }

  function playingControls() {
    const seated = last.seat !== null;
    if (!seated || last.table.status !== "playing") return [];
    const out = [];
    if (!last.vote && absentNow().length) {
      // a bot may play an absent player's seat until they come back (games with a bot)
      if (document.getElementById("table-app").dataset.bots === "true") {
        for (const seat of absentNow().filter((s) => !s.autopilot && !s.player.bot)) {
          out.push(el("button", { id: `propose-bot-${seat.seat}`, class: "secondary",
            onclick: () => post(`/api/tables/${tableId}/votes`, { proposal: "bot", target: seat.seat }) },
          t("life.propose_bot", { name: seat.player.name })));
        }
      }
      out.push(el("button", { id: "propose-abandon", class: "secondary", onclick: () => post(`/api/tables/${tableId}/votes`, { proposal: "abandon" }) },
        t("life.propose_abandon")));
    }
    if (!confirmResign) {
      out.push(el("button", { id: "resign", class: "secondary", onclick: () => { confirmResign = true; renderPanel(); $("resign-yes").focus(); } }, t("life.resign")));
    } else {
      out.push(el("div", { class: "life-confirm", role: "group", "aria-label": t("life.resign") },
        el("p", {}, t(coopGame() ? "life.resign_confirm_coop" : "life.resign_confirm")),
        el("button", { id: "resign-yes", class: "danger", onclick: async () => { confirmResign = false; await post(`/api/tables/${tableId}/resign${last.seat !== null && last.seat !== undefined ? `?seat=${last.seat}` : ""}`); } }, t("life.resign_yes")),
        el("button", { class: "secondary", onclick: () => { confirmResign = false; renderPanel(); } }, t("life.resign_no"))));
    }
    return out;
  }

  function coopGame() { return document.getElementById("table-app").dataset.cooperative === "true"; }

  function finishedControls() {
    if (last.table.status !== "finished") return [];
    const out = [];  // (how a game ended early heads the board: table.js, endedEarly)
    if (last.seat !== null) {
      const rematch = last.rematch;
      out.push(el("button", { id: "rematch", onclick: async () => {
        const joined = await post(`/api/tables/${tableId}/rematch`);
        if (joined) location.href = `/tables/${joined.table.id}`;
      } }, rematch ? t("life.rematch_join") : t("life.rematch")));
      if (rematch) out.unshift(el("p", { class: "life-invitation", role: "status" }, t("life.rematch_invited")));
    } else if (last.rematch) {
      out.push(el("a", { href: `/tables/${last.rematch.table}` }, t("life.rematch_watch")));
    }
    // one who watches a private table by its link reads its replay by the same link
    const data = document.getElementById("table-app").dataset;
    const linkKey = data.watch || data.invite;
    const replay = `/matches/${tableId}${linkKey ? `?key=${encodeURIComponent(linkKey)}` : ""}`;
    out.push(el("a", { id: "replay-link", href: replay }, t("life.replay")));
    return out;
  }

  function spectatorInfo() {
    const out = [];
    if (last.seat === null) {
      out.push(el("p", { class: "muted" }, t(last.spectators_see_all ? "life.you_watch_all" : "life.you_watch")));
    } else if (last.spectators_see_all) {
      out.push(el("p", { class: "muted" }, t("life.spectators_see_all")));
    }
    if (watchUrl) {
      out.push(el("div", { class: "life-watch" },
        el("label", { for: "watch-url" }, t("life.watch_link")),
        el("div", { class: "row" },
          ...withCopy(el("input", { id: "watch-url", readonly: true, value: watchUrl })))));
    }
    return out;
  }

  function renderPanel() {
    const panel = $("life");
    if (!panel || !last) return;
    const keep = document.activeElement && panel.contains(document.activeElement) ? document.activeElement.id : null;
    const parts = [el("h2", {}, t("life.title")), votePanel(), ...playingControls(), ...finishedControls(), ...spectatorInfo()];
    panel.replaceChildren(...parts.filter(Boolean));
    if (keep && $(keep)) $(keep).focus({ preventScroll: true });
  }

  function renderChatNote() {
    const note = $("chat-note");
    if (!note || !last) return;
    const spectatorChat = last.table.options.spectator_chat !== false;
    let key = spectatorChat ? "life.chat.spectators_may" : "life.chat.spectators_may_not";
    if (last.seat === null) {
      if (!me) key = "life.chat.name_to_chat";
      else if (!last.chat_allowed) key = spectatorChat ? "life.chat.closed_see_all" : "life.chat.spectators_may_not";
      else key = "life.chat.you_may";
    }
    note.textContent = t(key);
    if (last.seat === null && !me) {
      // a spectator without a name chooses one right here (the page comes back named)
      $("chat-input").disabled = true;
      $("chat-form").querySelector("button").disabled = true;
      const nameForm = $("chat-name-form");
      if (nameForm) {
        nameForm.hidden = !spectatorChat;
        $("chat-form").hidden = spectatorChat;
      }
    }
  }

  // ---------------------------------------------------------------- chat lines

  const shownLines = new Set();

  function chatLine(message) {
    if (message.id !== undefined) {
      if (shownLines.has(message.id)) return null;
      shownLines.add(message.id);
    }
    if (message.kind === "system") {
      const params = { ...(message.params || {}) };
      if (params.proposal) params.proposal = proposalName(params.proposal);
      if (params.reason) params.reason = t(`life.reason.${params.reason}`);
      return el("li", { class: "chat-system", dataset: { code: message.code || "" } }, t(`chat.system.${message.code}`, params));
    }
    const who = message.kind === "spectator" ? `${message.name} (${t("life.spectator")})` : message.name;
    return el("li", { class: message.kind === "spectator" ? "chat-spectator" : "" }, el("strong", {}, `${who}: `), message.text);
  }

  // ---------------------------------------------------------------- the log

  function onState(message) {
    if (message.history) {
      markers = []; markedTo = message.version; // placed when the log is drawn (mergeLog)
      markers.pending = message.history;
    } else if (message.version > markedTo) {
      markedTo = message.version;
      if (platformLine(message, seatName)) markers.push({ version: message.version, after: null, text: platformLine(message, seatName) });
    }
  }

  function mergeLog(lines, message) {
    const r = renderer();
    if (markers.pending && r && (r.eventLines || r.logLines)) {
      const history = markers.pending;
      delete markers.pending;
      const count = (n) => historyLines(r, ctxFor(), message, history.slice(0, n)).length;
      markers = markersFor(history, count, seatName);
    } else if (markers.pending) {
      delete markers.pending;
    }
    for (const marker of markers) if (marker.after === null) marker.after = lines.length;
    return merge(lines, markers);
  }

  let ctxFor = () => ({ t, el, seatName, me: last ? last.seat : null });

  // ---------------------------------------------------------------- hooks

  setInterval(() => {
    if (!last) return;
    renderClock();
    for (const node of document.querySelectorAll(".life-away")) {
      node.textContent = awayText(Number(node.dataset.away) + since());
    }
    if (last.vote || (last.table.status === "playing" && last.seat !== null)) {
      // a vote counts down; an absent player's grace may run out
      if (!document.activeElement || !$("life").contains(document.activeElement)) renderPanel();
    }
  }, 1000);

  return {
    seatExtras,
    watchersLine,
    chatLine,
    onState(message) {
      last = message;
      receivedAt = performance.now();
      onState(message);
    },
    mergeLog,
    setCtx(ctx) { ctxFor = () => ctx; },
    render(message) {
      last = message;
      renderClock();
      renderPanel();
      renderChatNote();
      if (watchFor !== message.seat) refreshWatchUrl();
    },
  };
}
