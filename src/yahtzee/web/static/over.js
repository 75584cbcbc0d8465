// After the game: the standings, the highlights, the review, and the rematch that the
// whole table takes together (one new table, the same seats: the first to ask makes it,
// everyone else is offered their seat at it).

import { $, api, botOf, botShown, boxesOf, boxText, el, fiveAlikeBox, playerClass, playerName, ruleSetOf, say, state } from "./state.js";
import { disconnect, send, showBanner } from "./net.js";
import { drawCard, forgetCards } from "./card.js";
import { openCreated, openHere } from "./lobby.js";
import { onDevice } from "./device.js";
import { offerUploads } from "./device_upload.js";
import { showScreen } from "./screens.js";
import { keepRematch, rematchAll } from "./pad.js";
import { drawColumnsButtons } from "./columns.js";
import { drawDailyResult, drawVerify } from "./daily.js";
import { num, t, tn } from "./i18n.js";

// "Ann and Bob" (and "Ann and Bob and Cy"): the winners, named together.
// Translators: two winners' names joined ("Ann and Bob"); more are joined in turn
const together = (names) => names.slice(1).reduce((first, second) => t("{first} and {second}", { first, second }), names[0]);

export function drawOver() {
  showScreen("over");
  const game = state.game;
  const standings = game.standings || [];
  const winners = standings.filter((s) => s.winner).map((s) => playerName(s.seat));
  $("turn").textContent = winners.length === 1 ? t("Game over: {name} wins", { name: winners[0] })
    : winners.length ? t("Game over: {names} share the win", { names: together(winners) }) : t("Game over");
  $("turn").className = "";
  $("timer").hidden = true;
  $("standings").replaceChildren(...standings.map((s) => {
    const item = el("li", { class: `standing ${playerClass(s.seat)}${s.winner ? " winner" : ""}` });
    // Translators: a place in the standings (1., 2., ...)
    item.append(el("span", { class: "place" }, t("{place}.", { place: s.place })), el("span", { class: "dot", "aria-hidden": "true" }),
                el("span", { class: "name" }, playerName(s.seat)));
    if (botOf(s.seat)) item.lastChild.append(el("span", { class: "badge" }, t("bot, {bot}", { bot: botShown(s.seat) })));
    item.append(el("span", { class: "total" }, String(s.total)));
    // Translators: a badge beside the winner's name in the standings
    if (s.winner) item.append(el("span", { class: "badge win" }, t("winner")));
    return item;
  }));
  $("highlights").replaceChildren(...game.cards.map((card, seat) => {
    let best = null;
    for (const { key, label } of boxesOf()) {
      const value = card.boxes[key];
      if (value !== null && value !== undefined && (!best || value >= best.value)) best = { label: boxText(label), value };
    }
    const five = fiveAlikeBox();  // Yahtzee, Yatzy: the table's rules' box for five alike
    const bonus = ruleSetOf().rules.yahtzee_bonus;
    const yahtzees = (card.boxes[five.key] === five.scoring.points ? 1 : 0) + (bonus && card.yahtzee_bonus > 0 ? Math.round(card.yahtzee_bonus / bonus) : 0);
    const parts = [];
    const fiveName = boxText(five.label);
    if (best && best.value > 0) parts.push(t("best box {box} ({points})", { box: best.label, points: best.value }));
    // Translators: how many of the box of five alike (Yahtzee, Yatzy) a player scored; {box} is its name
    parts.push(yahtzees === 0 ? t("no {box}", { box: fiveName }) : tn("{n} {box}", "{n} {box}s", yahtzees, { box: fiveName }));
    parts.push(card.upper_bonus ? t("upper bonus made") : state.bonusAt === null ? t("upper {points}", { points: card.upper_subtotal })
      : t("upper {points}/{goal}", { points: card.upper_subtotal, goal: state.bonusAt }));
    const item = el("li", { class: playerClass(seat) });
    item.append(el("span", { class: "dot", "aria-hidden": "true" }), el("strong", {}, playerName(seat)), document.createTextNode(`: ${parts.join(", ")}`));
    return item;
  }));
  drawRematch();
  drawSitting();
  drawColumnsButtons();
  loadSitting();
  drawCard($("final-card"), false);
  drawVerify();
  drawDailyResult();
  if (onDevice(state.table)) offerUploads();  // (signed in and online: keep it in the account)
  if (!state.reviewAsked && state.online) { state.reviewAsked = true; send({ type: "review" }); }
  drawReview();
}

function drawRematch() {
  const button = $("rematch");
  const offer = state.lobby && state.lobby.rematch;
  button.hidden = state.seat === null || !!(state.lobby && state.lobby.daily);  // one attempt a day
  button.dataset.focus = "rematch";
  button.textContent = onDevice(state.table) ? t("New game") : offer ? t("Take your seat at the rematch") : t("Rematch");
  const note = $("rematch-note");
  note.hidden = !offer || state.seat === null;
  note.textContent = offer ? t("A rematch is ready at a new table with the same seats: one tap takes yours.") : "";
}

// The sitting (this table and the rematches before it): once it has two games, the
// standings across them beside this game's, as the running total of a paper pad.
async function loadSitting() {
  const id = state.lobby && state.lobby.sitting;
  if (!id || state.sittingOf === state.table || onDevice(state.table)) return;
  state.sittingOf = state.table;
  try { state.sitting = await api(`/api/sittings/${encodeURIComponent(id)}`); }
  catch { state.sitting = null; }
  if (state.screen === "over") drawSitting();
}

function drawSitting() {
  const box = $("sitting");
  const sitting = state.sitting && state.sittingOf === state.table ? state.sitting : null;
  // the paper pad of the sitting's games, to print (a page of its own)
  const pad = $("sitting-pad");
  pad.hidden = !sitting;
  if (sitting) pad.href = `/api/sittings/${encodeURIComponent(sitting.id)}/pad`;
  box.hidden = !sitting || sitting.games.length < 2;
  if (box.hidden) return;
  const count = sitting.games.length;
  $("sitting-note").textContent = tn("{n} game at this table and its rematches: the total of each player's games, and the games each won.",
    "{n} games at this table and its rematches: the total of each player's games, and the games each won.", count);
  const ranked = [...sitting.standings].sort((a, b) => b.total - a.total || a.seat - b.seat);
  const best = ranked.length ? ranked[0].total : null;
  $("sitting-standings").replaceChildren(...ranked.map((s, i) => {
    const item = el("li", { class: `standing ${playerClass(s.seat)}${s.total === best ? " winner" : ""}` });
    item.append(el("span", { class: "place" }, t("{place}.", { place: i + 1 })), el("span", { class: "dot", "aria-hidden": "true" }),
                el("span", { class: "name" }, s.name),
                el("span", { class: "won" }, tn("{n} game won", "{n} games won", s.won)),
                el("span", { class: "total" }, String(s.total)));
    return item;
  }));
}

export function drawReview() {
  const box = $("review");
  const players = state.review;
  box.hidden = !players || players.length === 0 || state.screen !== "over";
  if (box.hidden) return;
  const parts = players.map((p) => {
    const part = el("section", { class: `review-player ${playerClass(p.seat)}` });
    part.append(el("h3", {}, tn("{name}: {loss} points lost to the best choices ({n} decision)", "{name}: {loss} points lost to the best choices ({n} decisions)",
      p.decisions, { name: p.name, loss: num(p.total_loss, 1) })));
    const list = el("ol");
    for (const d of p.costliest) {
      // what the choice cost, as the heading says it: points lost (never written negative)
      const cost = [t("{points} points lost", { points: num(d.loss, 2) })];
      if (typeof d.win_swing === "number") cost.push(d.win_swing < 0.0005 ? t("same chance to win") : t("{percent} less chance to win", { percent: t("{value}%", { value: num(d.win_swing * 100, 1) }) }));
      // Translators: one costly decision of the review; {chosen} and {best} are actions ("score Chance", "keep 3 3")
      list.append(el("li", {}, t("Round {round}, dice {dice}: {chosen}; best was {best} ({cost})", { round: d.round, dice: d.dice, chosen: d.chosen, best: d.best, cost: cost.join(", ") })));
    }
    part.append(list);
    return part;
  });
  const notes = (state.reviewNotes || []).map((n) => el("p", { class: "review-note" }, n));
  box.replaceChildren(el("h2", {}, t("Review")), ...notes, ...parts);
}

// The first player to ask makes the new table; every later ask (from anyone at this
// table) takes that player's seat at the same one.
export async function rematch() {
  const button = $("rematch");
  if (button.getAttribute("aria-busy") === "true") return;
  button.setAttribute("aria-busy", "true");
  try {
    if (onDevice(state.table)) { await newGameHere(); return; }
    const answers = await rematchAll();  // every seat this device holds
    const { made, name } = answers[0];
    leaveTable();
    openCreated(made, name);
    keepRematch(answers);
  } catch (error) { say(error.message); showBanner(error.message, []); }
  finally { button.removeAttribute("aria-busy"); }
}

// The table's state goes (the next table's comes in its place).
function leaveTable() {
  disconnect();
  Object.assign(state, { seq: 0, lobby: null, game: null, hint: null, review: null, reviewAsked: false, token: null, watch: null, seat: null,
                         myHold: null, pinned: null, sitting: null, sittingOf: null, verifyOf: null, dice: null, meter: { chances: null, progress: null, estimate: false, margin: null } });
  $("chat-log").replaceChildren();
  forgetCards();
}

// A game on this phone over: a new one with the same players, rules and dice (no server).
async function newGameHere() {
  const lobby = state.lobby;
  const table = {
    rules: lobby.rules, hints: lobby.hints_allowed, entered: lobby.dice === "entered",
    players: lobby.seats.map((s) => ({ name: s.name, bot: s.bot || null })),
  };
  leaveTable();
  await openHere(table);
}
