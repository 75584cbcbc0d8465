// The daily game (everyone's dice of the day, one attempt each) and the "verify the dice"
// panel of every finished game that committed to its dice. Results come from the server,
// worked out from the game played; the page never sends one.

import { $, api, copyButton, el, goTo, readJson, remember, state } from "./state.js";
import { showBanner } from "./net.js";
import { enterTable } from "./screens.js";
import { offline } from "./reach.js";
import { currentLanguage, num, t, tn } from "./i18n.js";

const dailyKey = (day) => `yahtzee-daily:${day}`;
// A day (2026-12-06, UTC) as the player's language writes it: "06.12.2026" in German;
// English keeps the day's own form (as the terminal does).
function dayWords(day) {
  const [year, month, date] = String(day).split("-").map(Number);
  if (!year || !month || !date || currentLanguage() === "en") return String(day);
  const when = new Date(Date.UTC(year, month - 1, date));
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium", timeZone: "UTC" }).format(when);
}

// --- The home page's entry ---------------------------------------------------------------

let followed = false;  // the connection's coming and going, followed once a page

// Offline the entry says so (and its form goes); back online it is asked for again.
function unreachable() {
  const box = $("daily");
  box.hidden = !offline();
  box.dataset.offline = "";
  $("daily-note").textContent = t("The daily game needs a connection.");
}

export async function setupDaily() {
  const box = $("daily");
  if (!followed) {
    followed = true;
    addEventListener("offline", () => { if (state.screen === "create") unreachable(); });
    addEventListener("online", () => { if (state.screen === "create") setupDaily(); });
  }
  let day;
  try { day = await api("/api/daily"); } catch { unreachable(); return; }
  delete box.dataset.offline;
  $("daily-note").textContent = "";
  $("daily-day").textContent = dayWords(day.day);
  $("daily-commitment").textContent = day.commitment;
  $("daily-tomorrow").textContent = day.tomorrow;
  $("daily-yesterday").textContent = day.yesterday_seed || t("none: no daily game on {day}", { day: dayWords(day.yesterday) });
  const mine = readJson(localStorage, dailyKey(day.day));
  if (mine && mine.name) {
    $("daily-name").value = mine.name;
    $("daily-play").textContent = mine.done ? t("See your result") : t("Go on with today's game");
  }
  $("daily-form").onsubmit = async (event) => {
    event.preventDefault();
    const name = $("daily-name").value;
    const kept = readJson(localStorage, dailyKey(day.day));
    const same = kept && kept.name === name;
    if (same && kept.done) { openDaily(kept.table, kept.token, name); return; }
    try {
      const started = await api("/api/daily", { name }, same ? kept.token : null);
      localStorage.setItem(dailyKey(started.day), JSON.stringify({ name, table: started.table.id, token: started.token }));
      openDaily(started.table.id, started.token, name);
    } catch (error) { $("daily-note").textContent = error.message; showBanner(error.message, []); }
  };
}

function openDaily(tableId, token, name) {
  remember(tableId, 0, token, name);
  goTo(tableId);
  enterTable(tableId, "roll");
}

// --- The commitment while the game runs --------------------------------------------------

// Out of the way, below the card: a "Fair dice" disclosure with the whole hash (to check).
export function drawCommitted() {
  const hash = state.lobby && state.lobby.commitment;
  $("fair-dice").hidden = !hash;
  // in groups of 16 that break between them only (a copy is still the hash, whole)
  const groups = (hash || "").match(/.{1,16}/g) || [];
  $("committed").replaceChildren(...groups.flatMap((g, i) => (i ? [el("wbr"), g] : [g])));
  $("fair-dice-note").textContent = state.lobby && state.lobby.daily
    ? t("The seed is shown when the day (UTC) is over, with the steps to check every roll by it.")
    : t("The seed is shown when the game is over, with the steps to check every roll by it.");
}

// --- After the game: verify the dice -----------------------------------------------------

export async function drawVerify() {
  const panel = $("verify");
  const game = state.lobby && state.lobby.game_id;
  if (!game || !state.lobby.commitment) { panel.hidden = true; return; }
  if (state.verifyOf !== game) {
    state.verifyOf = game;
    try { state.dice = await api(`/api/games/${encodeURIComponent(game)}/dice`); } catch { state.dice = null; }
  }
  const dice = state.dice;
  panel.hidden = !dice || state.screen !== "over";
  if (panel.hidden) return;
  $("verify-commitment").textContent = dice.commitment;
  $("verify-seed").textContent = dice.seed || t("not revealed yet: a daily game's seed is revealed when its day (UTC) is over");
  $("verify-seed").classList.toggle("prose", !dice.seed);  // words, not a hash: broken between words
  const drawn = dice.draw === "seat"
    ? t("Each seat drew its own dice from it.")
    : t("Every seat drew the same dice from it (duplicate dice).");
  $("verify-note").textContent = dice.seed
    ? `${t("Every roll of this game came from this seed: its SHA-256 is the commitment published before the first roll.")} ${drawn}`
    : t("Everyone plays today's dice: the seed is shown here, and on the home page, from tomorrow.");
  $("verify-steps").replaceChildren(...dice.steps.map((step) => el("li", {}, step)));
  $("verify-command").textContent = dice.verify;
}

// --- After the game: the daily result ----------------------------------------------------

export async function drawDailyResult() {
  const panel = $("daily-result");
  const lobby = state.lobby;
  if (!lobby || !lobby.daily || state.seat === null) { panel.hidden = true; return; }
  if (state.dailyOf !== state.table) {
    state.dailyOf = state.table;
    try { state.daily = await api(`/api/daily/tables/${encodeURIComponent(state.table)}/result`, undefined, state.token); }
    catch (error) { state.daily = null; $("status").textContent = error.message; }
    const kept = readJson(localStorage, dailyKey(lobby.daily));
    if (kept) localStorage.setItem(dailyKey(lobby.daily), JSON.stringify({ ...kept, done: true }));
  }
  const found = state.daily;
  panel.hidden = !found || state.screen !== "over";
  if (panel.hidden) return;
  $("turn").textContent = tn("Daily game: {n} point", "Daily game: {n} points", found.score);  // its day is the panel's title
  $("daily-result-title").replaceChildren(`${t("Your daily game")} `, el("span", { class: "daily-day" }, dayWords(found.day)));
  $("daily-score").textContent = tn("{n} point", "{n} points", found.score);
  // Skill is one number everywhere, the points lost (never written negative): fewer is better.
  const lost = found.loss === null ? "" : t("{points} points lost to the best choices (fewer is better).", { points: lostPoints(found.loss) });
  const yardstick = found.best === null ? "" : t("Optimal play scores {best} on today's dice.", { best: found.best });
  $("daily-skill").textContent = [lost, yardstick].filter(Boolean).join(" ");
  $("daily-share").value = found.share;
  const board = found.leaderboard;
  $("board-title").textContent = t("Leaderboard of {day}", { day: dayWords(board.day) });
  $("board-best").textContent = board.best === null ? "" : t("The yardstick: optimal play scores {best}.", { best: board.best });
  const row = (e, text) => {
    const item = el("li", { class: e.name === found.name ? "me" : "" });
    item.append(el("span", { class: "place" }, `${e.place}.`), el("span", { class: "name" }, e.name), el("span", { class: "total" }, text));
    return item;
  };
  $("board-score").replaceChildren(...board.by_score.map((e) => row(e, String(e.score))));
  $("board-skill").replaceChildren(...board.by_skill.map((e) => row(e, e.loss === null ? "?" : lostPoints(e.loss))));
  $("daily-streak").textContent = tn("{n} day in a row", "{n} days in a row", found.streak);
  $("daily-days").replaceChildren(...[...found.days].reverse().map((d) =>
    el("li", {}, d.loss === null ? t("{day}: {score} points", { day: d.day, score: d.score })
      : t("{day}: {score} points, {lost} lost", { day: d.day, score: d.score, lost: lostPoints(d.loss) }))));
}

const lostPoints = (loss) => num(Math.abs(loss), 1);

export function wireDaily() {
  copyButton($("copy-share"), $("daily-share"));
}
