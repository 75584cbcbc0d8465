// A game of Yahtzee (or Yatzy: any edition) for 1 to 8 players, offline, as yahtzee.core's
// Game and state machine: turns of up to three rolls, the boxes filled (a round per box),
// the winners and standings (a shared win, or a one-roll playoff under a "+playoff" rule
// set), games of real dice entered (dice and written scores), taking back the last
// placement, and the event log, event for event the core's. The engine never rolls: each
// roll's dice come from the caller or from an injected dice source (`{ throw(keep) }`).
// No DOM.

import { illegal, invalid, RuleError, show } from "./engine_errors.js";
import { contains, keepText, parseDice, parseKeep, spaced, total } from "./engine_dice.js";
import { t } from "./i18n.js";
import { allowedText, boxLabel, boxOf, cardTotal, cardView, checkEntry, emptyCard, outOfOrder, placement, placements, ruleBook, withPlacement } from "./engine_rules.js";

const EVENT_VERSION = 1;
const ENTERED = "entered";
const CONTROL = /[\p{C}\p{Zl}\p{Zp}]/u;
const SPACE_NOT_BLANK = /[\p{Zs}]/u;

/** A rule book from a rule set of GET /api/rules, or a book already made. */
const bookOf = (rules) => (rules && rules.natural ? rules : ruleBook(rules));

function checkedPlayers(book, players) {
  const most = book.rules.players;
  if (Number.isInteger(players)) {
    if (players < 1 || players > most) throw invalid(t("A game has 1 to {most} players, not {count}.", { most, count: players }));
    players = Array.from({ length: players }, (_, i) => `Player ${i + 1}`);
  }
  if (!Array.isArray(players)) throw invalid(t("Players must be a list of names or a number from 1 to {most}.", { most }));
  const names = players.map((name) => (typeof name === "string" ? name.trim() : name));
  if (names.length < 1 || names.length > most) throw invalid(t("A game has 1 to {most} players, not {count}.", { most, count: names.length }));
  const longest = book.rules.name_length;
  for (const name of names) {
    if (typeof name !== "string" || !name || name.length > longest) throw invalid(t("Player names are 1 to {longest} characters: {name}.", { longest, name: show(name) }));
    if (CONTROL.test(name) || SPACE_NOT_BLANK.test(name.replace(/ /g, ""))) throw invalid(t("Player name {name} contains control characters.", { name: show(name) }));
  }
  if (new Set(names.map((name) => name.toLowerCase())).size !== names.length) {
    throw invalid(t("Two players have the same name; give each a different name."));
  }
  return names;
}

export class Game {
  /** A new game: `rules` is a rule set of GET /api/rules (or its `ruleBook`), `players`
   *  names in seat order or a count; `entered`: the players roll real dice and enter them
   *  (`enterDice`) or write scores (`write`); `source`: `{ throw(keep) }` giving the dice
   *  of a roll when `roll` is not given them. */
  constructor(rules, players = 1, { entered = false, source = null } = {}) {
    this.book = bookOf(rules);
    this.source = source;
    const names = checkedPlayers(this.book, players);
    this.state = {
      players: names,
      cards: names.map(() => emptyCard(this.book)),
      phase: "turn",
      turn: { player: 0, round: 1, dice: null, rolls: 0, kept: "" },
      playoff: null,
      winners: [],
      before: null,
      entered: Boolean(entered),
    };
    const start = { type: "start", version: EVENT_VERSION, players: [...names], rules: this.book.name };
    if (entered) start.dice = ENTERED;
    this.log = [start];
  }

  // Reading ---------------------------------------------------------------------------

  get players() { return this.state.players; }
  get phase() { return this.state.phase; }
  get turn() { return this.state.turn; }
  get cards() { return this.state.cards; }
  get winners() { return this.state.winners; }
  get entered() { return this.state.entered; }
  get isOver() { return this.state.phase === "over"; }
  /** The event log (the core's event dicts), a fresh copy. */
  get events() { return this.log.map((event) => structuredClone(event)); }

  /** The seat that may act now (null once the game is over). */
  get currentPlayer() { return currentOf(this.state); }

  /** The legal boxes for the dice showing: {box, points, yahtzee_bonus, joker} each. */
  placements() {
    const turn = this.state.turn;
    if (!turn || turn.dice === null) return [];
    return placements(this.book, this.state.cards[turn.player], turn.dice);
  }

  /** Players by total, best first: {place, player, name, total, winner} (core's `standings`). */
  standings() {
    const { cards, winners, playoff, players } = this.state;
    const totals = cards.map((card) => cardTotal(this.book, card));
    const rounds = playoff ? playoff.knocked_out : [];
    const lasted = new Map();
    rounds.forEach((group, i) => group.forEach((p) => lasted.set(p, i)));
    const rank = (p) => [-totals[p], winners.includes(p) ? 0 : 1, -(lasted.has(p) ? lasted.get(p) : rounds.length)];
    const compare = (a, b) => { for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i]; return 0; };
    const order = players.map((_, p) => p).sort((a, b) => compare(rank(a), rank(b)) || a - b);
    const result = [];
    order.forEach((player, index) => {
      const same = result.length > 0 && compare(rank(result[result.length - 1].player), rank(player)) === 0;
      const place = same ? result[result.length - 1].place : index + 1;
      result.push({ place, player, name: players[player], total: totals[player], winner: winners.includes(player) });
    });
    return result;
  }

  /** Whether the last placement may be taken back now (by `player`). */
  canUndo(player = null) {
    try { checkUndo(this.state, player); return true; } catch (error) { if (error instanceof RuleError) return false; throw error; }
  }

  /** The protocol's GAME view (web/models.py GameView.of) without `slots` and `held`,
   *  which the page's tray keeps. `undoOn`: the game lets a player take back a placement. */
  view({ undoOn = false } = {}) {
    const { state, book } = this;
    const turn = state.turn;
    const rolled = turn !== null && turn.dice !== null;
    const over = state.phase === "over";
    return {
      phase: state.phase,
      players: [...state.players],
      current: this.currentPlayer,
      round: turn ? turn.round : null,
      dice: rolled ? turn.dice : null,
      rolls_left: turn ? book.rules.rolls_per_turn - turn.rolls : null,
      kept: rolled ? keepText(turn.kept) : null,
      cards: state.cards.map((card) => cardView(book, card)),
      placements: this.placements().map((p) => ({
        box: book.boxes[p.box].key, name: book.boxes[p.box].label, points: p.points, yahtzee_bonus: p.yahtzee_bonus, joker: p.joker,
      })),
      winners: [...state.winners],
      standings: over ? this.standings().map((s) => ({ place: s.place, seat: s.player, name: s.name, total: s.total, winner: s.winner })) : null,
      entered: state.entered,
      undo: undoOn ? this.undoSeat() : null,
    };
  }

  /** Who may take back the last placement now, if anyone. */
  undoSeat() {
    const last = this.log[this.log.length - 1];
    return (last.type === "score" || last.type === "write") && this.canUndo(last.player) ? last.player : null;
  }

  // Acting ----------------------------------------------------------------------------

  /** Keep `keep` (none on a turn's first roll, and in a playoff) and throw the others:
   *  `dice` are what then show (else the dice source's throw). Returns the dice. */
  roll(keep = "", { dice = undefined, player = null } = {}) {
    const { book } = this;
    keep = parseKeep(keep, book.dice);
    checkRoll(book, this.state, keep, player);
    const seat = this.currentPlayer;
    const thrown = dice === undefined ? this.throwFor(keep) : dice;
    const faces = parseDice(thrown, book.dice);
    if (this.state.playoff !== null) return this.append({ type: "playoff_roll", player: seat, dice: faces }) && faces;
    if (!contains(faces, keep)) throw invalid(t("The dice source threw {dice}, which does not hold {keep}.", { dice: faces, keep: keepText(keep) }));
    this.state = afterRoll(this.state, keep, faces);
    this.log.push({ type: "roll", player: seat, keep: keepText(keep), dice: faces });
    return faces;
  }

  throwFor(keep) {
    if (!this.source || typeof this.source.throw !== "function") throw invalid(t("No dice given for this roll, and the game has no dice source."));
    return this.source.throw(keep);
  }

  /** Fill `box` (a key such as "full_house", or its index) with the dice showing;
   *  returns the placement {box, points, yahtzee_bonus, joker}. */
  score(box, { player = null } = {}) {
    const { book } = this;
    const index = boxOf(book, box);
    const made = checkScore(book, this.state, index, player);
    const seat = this.currentPlayer;
    this.state = afterScore(book, this.state, made);
    this.log.push({ type: "score", player: seat, category: book.boxes[index].key, points: made.points, yahtzee_bonus: made.yahtzee_bonus });
    return made;
  }

  /** In a game of entered dice: the five dice showing on the table (`roll`: which roll of
   *  the turn, if said). Again before a box is filled, it corrects them. */
  enterDice(dice, { roll = null, player = null } = {}) {
    const faces = parseDice(dice, this.book.dice);
    const seat = checkDiceEntry(this.book, this.state, faces, roll, player);
    this.state = afterDiceEntry(this.book, this.state, seat, faces, roll);
    const event = { type: "dice", player: seat, dice: faces };
    if (roll !== null) event.roll = roll;
    this.log.push(event);
    return faces;
  }

  /** In a game of entered dice: `points` written in `box` without dice (quick entry). */
  write(box, points, { player = null } = {}) {
    const index = boxOf(this.book, box);
    const made = checkWritten(this.book, this.state, index, points, player);
    const seat = this.currentPlayer;
    this.state = afterScore(this.book, this.state, made);
    this.log.push({ type: "write", player: seat, category: this.book.boxes[index].key, points: made.points });
    return made;
  }

  /** Take back the last placement (before anyone rolls again; not once the game has
   *  ended): the box is open again and the same dice show. Returns the event taken back. */
  undo({ player = null } = {}) {
    const before = checkUndo(this.state, player);
    const placed = this.log[this.log.length - 1];
    this.state = before;
    this.log.push({ type: "undo", player: placed.player });
    return structuredClone(placed);
  }

  // Replay ----------------------------------------------------------------------------

  /** Rebuild a game from its events (a rule book or /api/rules rule set for its rules);
   *  a malformed or impossible log is a RuleError of kind invalid_input naming the event. */
  static replay(rules, events, { source = null } = {}) {
    if (!Array.isArray(events) || !events.length) throw invalid(t("An event log starts with a start event; this one is empty."));
    const [first, ...rest] = events;
    if (!first || first.type !== "start") throw invalid(t("An event log must begin with the game's start event."));
    const book = bookOf(rules);
    if (first.rules !== book.name) throw invalid(t("This log is of the {logged} rules, not {rules}.", { logged: show(first.rules), rules: show(book.name) }));
    if (first.version !== EVENT_VERSION) throw invalid(t("Event version {version} is not supported (this is {supported}).", { version: show(first.version), supported: EVENT_VERSION }));
    const game = new Game(book, first.players, { entered: first.dice === ENTERED, source });
    game.extend(rest, 2);
    return game;
  }

  /** Append recorded events, checked as `replay` checks them. */
  extend(events, number = this.log.length + 1) {
    for (const event of events) {
      try {
        this.append(event);
      } catch (error) {
        if (!(error instanceof RuleError)) throw error;
        const said = { number, message: error.message };
        throw invalid(error.kind === "illegal_move" ? t("Event {number} is not legal here: {message}", said) : t("Event {number}: {message}", said));
      }
      number += 1;
    }
  }

  append(event) {
    this.state = apply(this.book, this.state, event);
    this.log.push(structuredClone(event));
    return true;
  }
}

// The state machine (core's state.py) -----------------------------------------------------

function currentOf(state) {
  if (state.phase === "over") return null;
  if (state.turn !== null) return state.turn.player;
  if (state.playoff !== null) return state.playoff.contenders[state.playoff.rolls.length];
  return null;
}

function overMessage(state) {
  // Translators: two winners' names joined ("Ann and Bob"); more are joined in turn
  const names = state.winners.map((w) => state.players[w]).reduce((first, second) => t("{first} and {second}", { first, second }), null);
  return names ? t("The game is over: {names} won.", { names }) : t("The game is over.");
}

function checkActor(state, player) {
  const current = currentOf(state);
  if (current === null) throw illegal(overMessage(state), "game_over");
  if (player === null || player === undefined) return current;
  if (!Number.isInteger(player) || player < 0 || player >= state.players.length) {
    throw invalid(t("There is no seat {seat}; seats are 0 to {last}.", { seat: show(player), last: state.players.length - 1 }));
  }
  if (player !== current) throw illegal(t("It is {current}'s turn, not {player}'s.", { current: state.players[current], player: state.players[player] }), "not_your_turn");
  return player;
}

function checkRoll(book, state, keep, player) {
  checkActor(state, player);
  if (state.entered) throw illegal(t("In this game the players roll their own dice: enter the five dice showing."), "dice_entered");
  if (state.playoff !== null) {
    if (keep) throw illegal(t("A playoff roll throws all five dice."), "playoff_roll");
    return;
  }
  const turn = state.turn;
  if (turn.dice === null) {
    if (keep) throw illegal(t("The first roll throws all five dice; there is nothing to keep yet."), "keep_before_roll");
    return;
  }
  if (turn.rolls >= book.rules.rolls_per_turn) {
    const card = state.cards[turn.player];
    const allowed = allowedText(book, card, placements(book, card, turn.dice));
    throw illegal(t("You have used all three rolls: score the dice now. {allowed}", { allowed }), "no_rolls_left");
  }
  if (!contains(turn.dice, keep)) throw illegal(t("You cannot keep {keep}: the dice show {dice}.", { keep: spaced(keep), dice: spaced(turn.dice) }), "keep_not_in_dice");
}

function checkScore(book, state, box, player) {
  checkActor(state, player);
  if (state.playoff !== null) throw illegal(t("Every box is filled; the playoff only rolls."), "playoff_roll");
  const turn = state.turn;
  if (turn.dice === null) throw illegal(t("Roll the dice before you score."), "roll_first");
  return placement(book, state.cards[turn.player], turn.dice, box);
}

function checkEntered(state, player) {
  if (!state.entered) throw illegal(t("The program rolls the dice in this game: roll them instead of entering them."), "dice_rolled");
  return checkActor(state, player);
}

function checkDiceEntry(book, state, faces, roll, player) {
  const seat = checkEntered(state, player);
  const most = book.rules.rolls_per_turn;
  if (roll !== null && roll !== undefined && (!Number.isInteger(roll) || roll < 1 || roll > most)) {
    throw invalid(t("A roll of the turn is 1, 2 or {most} (or not said), not {roll}.", { most, roll: show(roll) }), "bad_roll");
  }
  return seat;
}

function checkWritten(book, state, box, points, player) {
  const seat = checkEntered(state, player);
  if (state.playoff !== null) throw illegal(t("Every box is filled; the playoff only rolls."), "playoff_roll");
  const card = state.cards[seat];
  if (card.boxes[box] !== null) {
    const open = card.boxes.flatMap((p, b) => (p === null ? [boxLabel(book, b)] : []));
    const allowed = t("Open boxes: {boxes}.", { boxes: open.join(", ") });
    throw illegal(t("{box} is already filled ({points}). {allowed}", { box: boxLabel(book, box), points: card.boxes[box], allowed }), "box_filled");
  }
  if (book.rules.ordered && card.boxes.indexOf(null) !== box) throw outOfOrder(book, card);
  return { box, points: checkEntry(book, box, points), yahtzee_bonus: 0, joker: false };
}

function checkUndo(state, player) {
  const before = state.before;
  if (before === null) {
    if (state.phase === "over") throw illegal(t("The game is over: its last box stays."), "no_undo");
    throw illegal(t("There is nothing to take back: a placement can be taken back only until the next roll."), "no_undo");
  }
  const placedBy = before.turn !== null ? before.turn.player : null;
  if (player !== null && player !== undefined && player !== placedBy) throw illegal(t("Only the player who filled the box can take it back."), "no_undo");
  return before;
}

const withTurn = (state, turn, cards = state.cards) => ({ ...state, turn, cards, before: null });

function afterRoll(state, keep, faces) {
  const turn = state.turn;
  return withTurn(state, { player: turn.player, round: turn.round, dice: faces, rolls: turn.rolls + 1, kept: keep });
}

function afterDiceEntry(book, state, seat, faces, roll) {
  if (state.playoff !== null) return playoffRoll(state, seat, faces);
  const turn = state.turn;
  const rolls = roll === null || roll === undefined ? book.rules.rolls_per_turn : roll;
  return withTurn(state, { player: turn.player, round: turn.round, dice: faces, rolls, kept: "" });
}

function afterScore(book, state, made) {
  const turn = state.turn;
  const cards = [...state.cards];
  cards[turn.player] = withPlacement(book, cards[turn.player], made);
  let player = turn.player + 1;
  let round = turn.round;
  if (player === state.players.length) { player = 0; round += 1; }
  if (round <= book.rounds) {
    const back = state.before !== null ? { ...state, before: null } : state;
    return { ...back, cards, turn: { player, round, dice: null, rolls: 0, kept: "" }, before: back };
  }
  return finish(book, withTurn(state, null, cards));
}

function leaders(book, state, seats) {
  const totals = seats.map((s) => cardTotal(book, state.cards[s]));
  const best = Math.max(...totals);
  return seats.filter((_, i) => totals[i] === best);
}

function finish(book, state) {
  const top = leaders(book, state, state.players.map((_, p) => p));
  if (top.length > 1 && book.rules.tie_break === "playoff") {
    return { ...state, phase: "playoff", playoff: { contenders: top, rolls: [], history: [], knocked_out: [] } };
  }
  return { ...state, phase: "over", winners: top };
}

function playoffRoll(state, player, faces) {
  const playoff = state.playoff;
  const rolls = [...playoff.rolls, [player, faces]];
  const history = [...playoff.history, [player, faces]];
  if (rolls.length < playoff.contenders.length) return { ...state, playoff: { ...playoff, rolls, history } };
  const best = Math.max(...rolls.map(([, d]) => total(d)));
  const stillTied = rolls.filter(([, d]) => total(d) === best).map(([p]) => p);
  const out = [...playoff.knocked_out, rolls.filter(([, d]) => total(d) !== best).map(([p]) => p)];
  if (stillTied.length > 1) return { ...state, playoff: { contenders: stillTied, rolls: [], history, knocked_out: out } };
  return { ...state, phase: "over", playoff: { contenders: playoff.contenders, rolls, history, knocked_out: out }, winners: stillTied };
}

function whole(event, key) {
  const value = event[key];
  if (!Number.isInteger(value) || value < 0) throw invalid(t("Event field {field} must be a whole number, not {value}.", { field: show(key), value: show(value) }));
  return value;
}

function text(event, key) {
  const value = event[key];
  if (typeof value !== "string") throw invalid(t("Event field {field} must be text, not {value}.", { field: show(key), value: show(value) }));
  return value;
}

/** The state after a recorded event, which must be legal in `state` (core's `apply`). */
function apply(book, state, event) {
  if (event === null || typeof event !== "object" || Array.isArray(event)) throw invalid(t("An event must be a JSON object."));
  switch (event.type) {
    case "roll": {
      const player = whole(event, "player");
      const keep = parseKeep(text(event, "keep"), book.dice);
      const faces = parseDice(text(event, "dice"), book.dice);
      checkActor(state, player);
      if (state.playoff !== null) throw invalid(t("A turn roll came during the playoff."));
      checkRoll(book, state, keep, player);
      if (!contains(faces, keep)) throw invalid(t("Rolled dice {dice} do not contain the kept {keep}.", { dice: faces, keep: keepText(keep) }));
      return afterRoll(state, keep, faces);
    }
    case "playoff_roll": {
      const player = whole(event, "player");
      const faces = parseDice(text(event, "dice"), book.dice);
      checkActor(state, player);
      if (state.playoff === null) throw invalid(t("A playoff roll came before any playoff."));
      checkRoll(book, state, "", player);
      return playoffRoll(state, player, faces);
    }
    case "score": {
      const player = whole(event, "player");
      const box = boxOf(book, text(event, "category"));
      const points = whole(event, "points");
      const bonus = whole(event, "yahtzee_bonus");
      const made = checkScore(book, state, box, player);
      if (made.points !== points || made.yahtzee_bonus !== bonus) {
        throw invalid(t("The log says {box} scored {points} (+{bonus}), but the dice give {made} (+{madeBonus}).", { box: boxLabel(book, box), points: show(points), bonus: show(bonus), made: made.points, madeBonus: made.yahtzee_bonus }));
      }
      return afterScore(book, state, made);
    }
    case "undo":
      return checkUndo(state, whole(event, "player"));
    case "dice": {
      const player = whole(event, "player");
      const faces = parseDice(text(event, "dice"), book.dice);
      const roll = event.roll === undefined || event.roll === null ? null : whole(event, "roll");
      checkDiceEntry(book, state, faces, roll, player);
      return afterDiceEntry(book, state, player, faces, roll);
    }
    case "write": {
      const player = whole(event, "player");
      const box = boxOf(book, text(event, "category"));
      return afterScore(book, state, checkWritten(book, state, box, whole(event, "points"), player));
    }
    case "start":
      throw invalid(t("A game can start only once."));
    default:
      throw invalid(t("Unknown event type {type}; known types: {types}.", { type: show(event.type), types: "start, roll, score, playoff_roll, undo, dice, write" }));
  }
}
