// The table's feel: a short animation for a placed score, the upper bonus, a Yahtzee and
// a Yahtzee bonus, and sounds made in the browser (off until the player turns them on).
// With reduced motion the moments are still said, without movement.

import { $, el } from "./state.js";
import { t } from "./i18n.js";

const SOUND_KEY = "yahtzee:sound";
let audio = null;

export function soundOn() { return localStorage.getItem(SOUND_KEY) === "on"; }

export function wireSound() {
  const button = $("sound");
  const draw = () => {
    const on = soundOn();
    button.setAttribute("aria-pressed", String(on));
  };
  button.onclick = () => {
    localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
    draw();
    if (soundOn()) play("score");
  };
  draw();
}

function context() {
  if (!audio) {
    const Kind = window.AudioContext || window.webkitAudioContext;
    if (!Kind) return null;
    audio = new Kind();
  }
  if (audio.state === "suspended") audio.resume();
  return audio;
}

function tone(ctx, frequency, start, length, volume = 0.12, type = "triangle") {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.value = frequency;
  gain.gain.setValueAtTime(0, ctx.currentTime + start);
  gain.gain.linearRampToValueAtTime(volume, ctx.currentTime + start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + length + 0.02);
}

function rattle(ctx, clicks) {
  for (let i = 0; i < clicks; i++) tone(ctx, 900 + Math.random() * 900, i * 0.045 + Math.random() * 0.02, 0.03, 0.08, "square");
}

// "shake", "hold", "score", "bonus", "yahtzee"
export function play(kind) {
  if (!soundOn()) return;
  const ctx = context();
  if (!ctx) return;
  if (kind === "shake") rattle(ctx, 8);
  else if (kind === "hold") tone(ctx, 660, 0, 0.06, 0.06);
  else if (kind === "score") { tone(ctx, 523, 0, 0.12); tone(ctx, 784, 0.08, 0.16); }
  else if (kind === "bonus") [523, 659, 784, 1047].forEach((f, i) => tone(ctx, f, i * 0.09, 0.2));
  else if (kind === "yahtzee") [392, 523, 659, 784, 1047, 1319].forEach((f, i) => tone(ctx, f, i * 0.1, 0.35, 0.14));
}

function reduced() { return matchMedia("(prefers-reduced-motion: reduce)").matches; }

// A placed score: its cell lights up for a moment.
export function flashCell(cell) {
  if (!cell || reduced()) return;
  cell.classList.remove("just-filled");
  void cell.offsetWidth;
  cell.classList.add("just-filled");
}

// A Yahtzee, a Yahtzee bonus or the upper bonus: a banner over the table for a moment
// (a still one with reduced motion), and its sound.
// `named`: the five-alike box's name under the table's rules ("Yatzy"), for a "yahtzee".
export function celebrate(kind, who, points, named = "Yahtzee") {
  const box = $("celebration");
  const title = kind === "yahtzee" ? t("{box}!", { box: named })
    : kind === "yahtzee-bonus" ? t("Yahtzee bonus! +{points}", { points }) : t("Upper bonus! +{points}", { points });
  const line = who ? `${who}` : "";
  const dice = el("div", { class: "burst", "aria-hidden": "true" });
  for (let i = 0; i < 10; i++) dice.append(el("span", { class: `spark s${i}` }));
  box.replaceChildren(dice, el("p", { class: "big" }, title), el("p", { class: "who" }, line));
  box.className = `celebration ${kind}${reduced() ? " still" : ""}`;
  box.hidden = false;
  play(kind === "upper-bonus" ? "bonus" : "yahtzee");
  clearTimeout(celebrate.timer);
  celebrate.timer = setTimeout(() => { box.hidden = true; }, reduced() ? 2200 : 1900);
}
