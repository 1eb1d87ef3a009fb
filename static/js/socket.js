// A table WebSocket that reconnects by itself (with backoff) and resyncs on every connect.
export class TableSocket {
  constructor(tableId, { invite = "", watch = "", onMessage, onStatus }) {
    this.tableId = tableId;
    this.invite = invite;
    this.watch = watch; // a spectator link's key (watch a private table, never sit)
    this.seat = null; // which of its player's seats it is for (a branch's hot seat)
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.delay = 500;
    this.closedForGood = false;
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const params = new URLSearchParams();
    if (this.invite) params.set("invite", this.invite);
    if (this.watch) params.set("watch", this.watch);
    if (this.seat !== null) params.set("seat", String(this.seat));
    const query = params.toString() ? `?${params}` : "";
    return `${scheme}://${location.host}/ws/tables/${this.tableId}${query}`;
  }

  connect() {
    this.ws = new WebSocket(this.url());
    this.ws.onopen = () => { this.delay = 500; this.onStatus(true); };
    this.ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "closed") this.closedForGood = true;
      this.onMessage(message);
    };
    this.ws.onclose = (event) => {
      this.onStatus(false);
      if (this.closedForGood || event.code === 1008) return;
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }

  // connect again for another of the player's seats (the hot seat): that seat's view only
  switchSeat(seat) {
    this.seat = seat;
    const old = this.ws;
    old.onclose = null;
    old.onmessage = null;
    this.onStatus(false);
    this.connect();
    // the old connection goes once the table has taken the new one (its first message):
    // the player never looks away
    const closeOld = () => old.close();
    this.ws.addEventListener("message", closeOld, { once: true });
    this.ws.addEventListener("close", closeOld, { once: true });
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }
}
