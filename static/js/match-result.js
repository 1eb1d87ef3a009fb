// How a finished game came out, in one line (the lobby's recent games and the replay page
// say it alike): a cooperative game's team score, or who won, or that nobody did. How it
// ended early (a resignation, a vote) each page says its own way before asking this.
import { andList, t } from "./i18n.js";

export function outcomeText(outcome, seatName) {
  const details = (outcome && outcome.details) || {};
  // a cooperative game (Hanabi) is won or lost together: its score says how it went
  if (details.cooperative && details.score !== undefined) return t("replay.team_score", { score: details.score, max: details.max_score });
  const winners = (outcome && outcome.winners) || [];
  if (!winners.length) return t("replay.no_winner");
  return t(winners.length === 1 ? "replay.winners" : "replay.winners_many", { names: andList(winners.map(seatName)) });
}
