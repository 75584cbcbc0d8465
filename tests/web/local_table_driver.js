// The node driver of tests/web/test_js_local_table.py (run by tests/js_engine.run_js).
import { input, answer } from "./js_io.js";
const table = Buffer.from(input.table, "base64");
const yatzyTable = Buffer.from(input.yatzy_table, "base64");
globalThis.fetch = async (address) => {
  if (address === "/api/rules") return new Response(JSON.stringify(input.rules));
  if (address.startsWith("/api/advisor/official/table")) return new Response(table);
  if (address.startsWith(`/api/advisor/${encodeURIComponent("yatzy+forced")}/table`)) return new Response(yatzyTable);
  return new Response("{}", { status: 404 });
};
const lt = await import("./local_table.js");
const out = {};

// A client: every message kept; `next(predicate)` waits for the first new one that fits.
function client(module, id, token) {
  const socket = module.openLocalSocket(id);
  const c = { socket, seen: [], waiters: [], closed: null, sync: true };
  socket.onopen = () => socket.send(JSON.stringify({ v: 1, type: "hello", token }));
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    c.seen.push(message);
    for (const w of [...c.waiters]) if (w.test(message)) { c.waiters.splice(c.waiters.indexOf(w), 1); w.resolve(message); }
  };
  socket.onclose = (event) => { c.closed = event.code; for (const w of c.waiters) w.resolve(null); };
  c.next = (test) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no message in time: " + test)), 20000);
    c.waiters.push({ test, resolve: (m) => { clearTimeout(timer); resolve(m); } });
  });
  c.ask = (message) => {
    const answer = c.next((m) => (m.type === "ack" || m.type === "error") && m.id === message.id);
    const count = c.seen.length;
    socket.send(JSON.stringify({ v: 1, ...message }));
    c.sync = c.sync && c.seen.length === count;  // nothing comes back from inside send()
    return answer;
  };
  return c;
}
let counter = 0;
const nid = () => `t${++counter}`;

// --- A game against a level-3 bot ---------------------------------------------------------
const made = await lt.createDeviceTable({ rules: "official", players: [{ name: "Ann", bot: null }, { name: "Robo", bot: "level3" }], botDelay: 0 });
out.created = { id: made.table.id, seats: made.seats.map((s) => ({ seat: s.seat, name: s.name, token: typeof s.token })), status: made.table.status, device: lt.isDeviceTable(made.table.id) };
const ann = client(lt, made.table.id, made.seats[0].token);
const first = await ann.next((m) => m.type === "state");
out.first = { seq: first.seq, you: first.you, game: first.game.current, slots: first.game.slots, win: first.win_chances, threshold: first.upper_bonus_threshold, dice: first.table.dice };
const rolled = await ann.ask({ type: "roll", keep: "", id: "r1" });
const event = ann.seen.find((m) => m.type === "event");
out.roll = { ack: rolled, event: event.event, slots: event.game.slots, left: event.game.rolls_left };
const again = await ann.ask({ type: "roll", keep: "", id: "r1" });
out.rollAgain = { ack: again, events: ann.seen.filter((m) => m.type === "event").length };
const before = event.game.slots;
const held = await ann.ask({ type: "hold", held: [1, 3], id: nid() });
out.hold = { ack: held.type, message: ann.seen.find((m) => m.type === "hold") };
await ann.ask({ type: "roll", held: [1, 3], id: nid() });
const second = ann.seen.filter((m) => m.type === "event").at(-1);
out.kept = { before, after: second.game.slots, held: second.game.held, keep: second.event.keep };
const hintAnswer = ann.next((m) => m.type === "hint");
ann.socket.send(JSON.stringify({ v: 1, type: "hint" }));
const hint = await hintAnswer;
out.hint = hint;
out.notices = ann.seen.filter((m) => m.type === "error").map((m) => m.code);
out.otherTurn = await ann.ask({ type: "score", box: "chance", id: nid() }).then(async () => {
  // Robo's turn now: Ann's roll is refused
  await ann.next((m) => m.type === "event" && m.event.player === 1 && m.event.type === "score");
  return null;
});
out.refusals = {};
for (const [name, message] of Object.entries({
  chat: { type: "chat", text: "hi" }, resign: { type: "resign" }, undo: { type: "undo" }, unknown: { type: "dance" },
  score: { type: "score", box: "nonsense" }, keep: { type: "roll", keep: "66666" }, places: { type: "roll", held: [7] },
})) {
  const got = await ann.ask({ ...message, id: nid() });
  out.refusals[name] = { code: got.code, message: got.message };
}
// Play the game out with the advisor's best.
async function playOut(ann) {
for (let guard = 0; guard < 200; guard++) {
  const state = await new Promise((resolve) => { const c = ann.next((m) => m.type === "state"); ann.socket.send(JSON.stringify({ v: 1, type: "resync" })); c.then(resolve); });
  const game = state.game;
  if (game.phase === "over") break;
  if (game.current !== 0) { await ann.next((m) => m.type === "event" && m.game.current === 0 || m.game && m.game.phase === "over"); continue; }
  if (!game.dice) { await ann.ask({ type: "roll", keep: "", id: nid() }); continue; }
  const h = ann.next((m) => m.type === "hint");
  ann.socket.send(JSON.stringify({ v: 1, type: "hint" }));
  const best = (await h).options[0].action;
  if (best.startsWith("score ")) {
    const box = game.placements.find((p) => `score ${p.name}` === best).box;
    await ann.ask({ type: "score", box, id: nid() });
  } else {
    const keep = best === "keep nothing" ? "" : best.slice(5).replaceAll(" ", "");
    await ann.ask({ type: "roll", keep, id: nid() });
  }
}
}
await playOut(ann);
const reviewAnswer = ann.next((m) => m.type === "review");
ann.socket.send(JSON.stringify({ v: 1, type: "review" }));
out.review = await reviewAnswer;
const last = await new Promise((resolve) => { const c = ann.next((m) => m.type === "state"); ann.socket.send(JSON.stringify({ v: 1, type: "resync" })); c.then(resolve); });
out.over = { phase: last.game.phase, standings: last.game.standings.length, status: last.table.status, seq: last.seq };
out.games = await lt.deviceGames();
const body = await lt.uploadBody(made.table.id);
out.body = { id: body.id, seat: body.seat, rules: body.rules, players: body.players, events: body.events.length, finished: typeof body.finished_at };
await lt.markUploaded(made.table.id, "g-1");
out.uploaded = (await lt.deviceGames()).find((g) => g.id === made.table.id).uploaded;
out.sync = ann.sync;

// --- A wrong token -----------------------------------------------------------------------
const stranger = client(lt, made.table.id, "not-a-token");
await new Promise((resolve) => { const t = setInterval(() => { if (stranger.closed !== null) { clearInterval(t); resolve(); } }, 5); });
out.stranger = stranger.closed;

// --- A hello and, before it is answered, a ping and an intent (the page's watcher pings at
// once on a new connection): the seat is taken, the ping answered, the intent applied ---
const busy = client(lt, made.table.id, made.seats[0].token);
busy.socket.onopen = () => {
  busy.socket.send(JSON.stringify({ v: 1, type: "hello", token: made.seats[0].token }));
  busy.socket.send(JSON.stringify({ v: 1, type: "ping" }));
  busy.socket.send(JSON.stringify({ v: 1, type: "resync", id: nid() }));
};
const states = () => busy.seen.filter((m) => m.type === "state").length;
await new Promise((resolve, reject) => {  // the hello's state and the resync's
  const give = setTimeout(() => { clearInterval(t); reject(new Error("no second state")); }, 20000);
  const t = setInterval(() => { if (states() >= 2 || busy.closed !== null) { clearInterval(t); clearTimeout(give); resolve(); } }, 5);
});
out.busy = { closed: busy.closed, pong: busy.seen.some((m) => m.type === "pong") };

// --- Mid-turn, the page reloaded ---------------------------------------------------------
const solo = await lt.createDeviceTable({ rules: "official", players: [{ name: "Bea", bot: null }], hints: false });
const bea = client(lt, solo.table.id, solo.seats[0].token);
await bea.next((m) => m.type === "state");
await bea.ask({ type: "roll", keep: "", id: nid() });
await bea.ask({ type: "hold", held: [0, 4], id: nid() });
out.hintsOff = (await bea.ask({ type: "hint", id: nid() })).code;
const shown = await new Promise((resolve) => { const c = bea.next((m) => m.type === "state"); bea.socket.send(JSON.stringify({ v: 1, type: "resync" })); c.then(resolve); });
const reloaded = await import("./local_table.js?reloaded");
const bea2 = client(reloaded, solo.table.id, solo.seats[0].token);
const back = await bea2.next((m) => m.type === "state");
out.resumed = { before: [shown.game.slots, shown.game.held, shown.game.rolls_left, shown.seq], after: [back.game.slots, back.game.held, back.game.rolls_left, back.seq] };
await bea2.ask({ type: "score", box: "chance", id: nid() });
out.soloUndo = (await bea2.ask({ type: "undo", id: nid() })).type;

// --- Real dice -----------------------------------------------------------------------------
out.botsEntered = await lt.createDeviceTable({ rules: "official", players: [{ name: "A", bot: null }, { name: "B", bot: "level1" }], entered: true }).then(() => null, (e) => e.message);
const pad = await lt.createDeviceTable({ rules: "official", players: [{ name: "Cy", bot: null }, { name: "Di", bot: null }], entered: true });
const cy = client(lt, pad.table.id, pad.seats[0].token);
await cy.next((m) => m.type === "state");
out.entered = [];
for (const message of [{ type: "roll", keep: "" }, { type: "dice", dice: "33356", roll: 2 }, { type: "dice", dice: "7" }, { type: "score", box: "threes" }, { type: "undo" }, { type: "write", category: "fours", points: 7 }, { type: "write", category: "fours", points: 12 }]) {
  const got = await cy.ask({ ...message, id: nid() });
  out.entered.push(got.type === "error" ? got.code : cy.seen.filter((m) => m.type === "event").at(-1).game.undo);
}
out.enteredCards = cy.seen.filter((m) => m.type === "event").at(-1).game.cards.map((c) => c.boxes);
out.padTurn = cy.seen.filter((m) => m.type === "event").at(-1).game.current;

// --- Yatzy on the device: against a bot, with hints, boxes filled top to bottom --------
const yz = await lt.createDeviceTable({ rules: "yatzy+forced", players: [{ name: "Ed", bot: null }, { name: "Bo", bot: "level3" }], botDelay: 0 });
const ed = client(lt, yz.table.id, yz.seats[0].token);
await ed.next((m) => m.type === "state");
await ed.ask({ type: "roll", keep: "", id: nid() });
const yatzyHint = ed.next((m) => m.type === "hint");
ed.socket.send(JSON.stringify({ v: 1, type: "hint" }));
out.yatzyHint = await yatzyHint;
out.yatzyOutOfOrder = (await ed.ask({ type: "score", box: "chance", id: nid() })).code;
await playOut(ed);
const yatzyReview = ed.next((m) => m.type === "review");
ed.socket.send(JSON.stringify({ v: 1, type: "review" }));
out.yatzyReview = await yatzyReview;
out.yatzyOver = ed.seen.filter((m) => m.type === "event").at(-1).game;
out.yatzyBotMoves = ed.seen.filter((m) => m.type === "event" && m.event.player === 1 && m.event.type === "score").length;
answer(out);
process.exit(0);
