"""Game records on the command line: history, stats, high scores, export, import, replay,
and the printable card."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import Game, InvalidInput, RuleSet
from ..core.errors import show
from ..core.language import N_, _, ngettext
from ..render.numbers import decimal, percent
from ..render.pad_html import MAX_PAD_GAMES, MAX_PAD_PLAYERS
from ._io import add_database_option, add_rules_option, print_json, whole_number

if TYPE_CHECKING:
    from ..store import GameSummary, PlayerStats, Store

MAX_LIMIT = 1_000_000
FORMATS = ("json", "csv")
DICE = ("rolled", "entered")
"""A game's dice: rolled by the program, or entered by the players (real dice)."""
ALL_DICE = "all"
DICE_WORDS = {
    "rolled": N_("dice the program rolled"), "entered": N_("real dice"), ALL_DICE: N_("any dice")
}  # fmt: skip
IN_MEMORY = "sqlite://"


def open_store(args: argparse.Namespace) -> Store:
    from ..store import Store  # noqa: PLC0415 - SQLAlchemy loads only for these commands

    return Store(args.database_url)


@contextmanager
def reading(args: argparse.Namespace) -> Iterator[Store]:
    """The records for a command that only reads them. Where there is no database yet,
    an empty one in memory: reading finds no games and leaves no file or folder behind."""
    from ..store import Store  # noqa: PLC0415
    from ..store.engine import database_exists, sqlite_path, writable  # noqa: PLC0415

    url = args.database_url if database_exists(args.database_url) else IN_MEMORY
    path = sqlite_path(url)
    with Store(url, read_only=path is not None and not writable(path)) as store:
        yield store


def _date(text: str) -> datetime:
    try:
        stamp = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text} is not a date like 2026-11-29").format(text=repr(text))
        ) from None
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def register(commands: Any) -> None:
    p = commands.add_parser("history", help=_("list recorded games, newest first"))
    p.add_argument("--player", metavar="NAME", help=_("only games this player sat in"))
    add_rules_option(p, default=None, what=_("only games under this rule set"))
    p.add_argument("--since", type=_date, metavar="DATE", help=_("started on or after DATE"))
    p.add_argument("--until", type=_date, metavar="DATE", help=_("started before DATE"))
    p.add_argument("--unfinished", action="store_true", help=_("only games still in progress"))
    p.add_argument(
        "--sitting", metavar="ID",
        help=_("only the games of this sitting (its id or its first characters), in order"),
    )  # fmt: skip
    p.add_argument("--dice", choices=DICE, help=_("only games of dice rolled or entered"))
    p.add_argument(
        "--limit", type=whole_number(1, MAX_LIMIT), default=50, metavar="N",
        help=_("at most N games, 1 to {most} (default 50)").format(most=MAX_LIMIT),
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    add_database_option(p)
    p.set_defaults(run=history)

    p = commands.add_parser("stats", help=_("statistics per player"))
    p.add_argument("player", nargs="?", help=_("one player (default: everyone)"))
    add_rules_option(p, default=None, what=_("only games under this rule set"))
    p.add_argument(
        "--dice", choices=DICE,
        help=_("only games whose dice the program rolled, or that players entered (real dice)"),
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    add_database_option(p)
    p.set_defaults(run=stats)

    p = commands.add_parser("highscores", help=_("the best totals under a rule set"))
    add_rules_option(p, what=_("the rule set whose scores to rank"))
    p.add_argument(
        "--limit", type=whole_number(1, MAX_LIMIT), default=10, metavar="N",
        help=_("the best N totals, 1 to {most} (default 10)").format(most=MAX_LIMIT),
    )  # fmt: skip
    p.add_argument(
        "--dice", choices=(*DICE, ALL_DICE), default="rolled",
        help=_("rolled: games whose dice the program rolled (the default: a total typed in "
        "from real dice cannot be checked); entered: games of real dice; all: both"),
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    add_database_option(p)
    p.set_defaults(run=highscores)

    p = commands.add_parser("export", help=_("write every recorded game as JSON or CSV"))
    p.add_argument(
        "--format", choices=FORMATS, default="json",
        help=_("json (every event, for import) or csv (one row per player and game)"),
    )  # fmt: skip
    p.add_argument("--out", metavar="FILE", help=_("write to FILE (default: standard output)"))
    add_database_option(p)
    p.set_defaults(run=export)

    p = commands.add_parser("import", help=_("read games from an export (JSON or CSV)"))
    p.add_argument("file", metavar="FILE", help=_("an export written by 'yahtzee export'"))
    add_database_option(p)
    p.set_defaults(run=import_)

    p = commands.add_parser("replay", help=_("print a recorded game turn by turn"))
    p.add_argument("game_id", metavar="GAME_ID", help=_("a game id or its first characters"))
    add_database_option(p)
    p.set_defaults(run=replay)

    p = commands.add_parser(
        "card",
        help=_("the printable scorecard of a game, its sitting's pad, or a blank pad"),
        description=_(
            "Write a page that prints on one A4 or Letter page: a recorded game's "
            "scorecard; with --sitting, the pad of every game of its sitting (one column per "
            "game per player, a running total); with --blank, an empty pad for real dice."
        ),
    )
    p.add_argument(
        "game_id", metavar="GAME_ID", nargs="?", help=_("a game id or its first characters")
    )
    p.add_argument("--html", metavar="FILE", required=True, help=_("write the page to FILE"))
    p.add_argument(
        "--sitting", action="store_true", help=_("the pad of every game of GAME_ID's sitting")
    )
    p.add_argument("--blank", action="store_true", help=_("an empty pad to fill in by hand"))
    p.add_argument(
        "--players", type=whole_number(1, MAX_PAD_PLAYERS), default=1, metavar="N",
        help=_("with --blank: players, 1 to {most} (default 1)").format(most=MAX_PAD_PLAYERS),
    )  # fmt: skip
    p.add_argument(
        "--games", type=whole_number(1, MAX_PAD_GAMES), default=MAX_PAD_GAMES, metavar="N",
        help=_("with --blank: columns (games) per player, 1 to {most} (default {most})").format(
            most=MAX_PAD_GAMES),
    )  # fmt: skip
    add_rules_option(p, what=_("with --blank: the rule set its notes state"))
    add_database_option(p)
    p.set_defaults(run=card)


def history(args: argparse.Namespace) -> int:
    from ..store import history as query  # noqa: PLC0415
    from ..store import progress_of  # noqa: PLC0415
    from ..store.queries import resolve_sitting, sitting_places  # noqa: PLC0415

    if args.rules:
        args.rules = RuleSet.named(args.rules).name
    with reading(args) as store:
        sitting = resolve_sitting(store, args.sitting) if args.sitting else None
        found = query(store, player=args.player, rules=args.rules, since=args.since,
                      until=args.until, status="active" if args.unfinished else None,
                      limit=args.limit, sitting=sitting, dice=args.dice)  # fmt: skip
        if sitting is not None:  # a sitting's games in the order they were played
            found.sort(key=lambda g: (g.created_at, g.id))
        places = sitting_places(store, found)
        # where each unfinished game stands, as the terminal game's history says
        now = {g.id: progress_of(store, g.id) for g in found if g.status == "active"}
    if args.json:
        print_json([_summary(g, places[g.id]) for g in found])
        return 0
    if not found:
        keys = ("player", "rules", "since", "until", "sitting", "dice")
        filtered = any(vars(args).get(k) for k in keys)
        print(_("No games match.") if filtered or args.unfinished else _("No games recorded yet."))
        return 0
    for g in found:
        totals: tuple[int | None, ...] = g.totals
        mark = ""
        if g.status == "active":
            reached = now.get(g.id)
            stage = reached.stage if reached else _("unreadable")
            mark = "  " + _("(unfinished, {stage})").format(stage=stage)
            totals = reached.totals if reached else totals
        scores = ", ".join(
            f"{name} {'-' if total is None else total}"
            for name, total in zip(g.players, totals or (None,) * len(g.players), strict=False)
        )
        won = (
            "  " + _("won by {names}").format(names=_(" and ").join(g.winners))
            if g.winners and len(g.players) > 1
            else ""
        )
        number, count = places[g.id]
        where = (
            _("[sitting {sitting}, game {number} of {count}, real dice]")
            if g.dice == "entered"
            else _("[sitting {sitting}, game {number} of {count}]")
        ).format(sitting=(g.sitting or g.id)[:8], number=number, count=count)
        where = "  " + where
        print(f"{g.id[:8]}  {g.created_at:%Y-%m-%d %H:%M}  {g.rules:<18} {scores}{won}{where}"
              f"{mark}")  # fmt: skip
    return 0


def _summary(g: GameSummary, place: tuple[int, int]) -> dict[str, Any]:
    return {
        "id": g.id, "rules": g.rules, "status": g.status, "players": list(g.players),
        "totals": list(g.totals), "winners": list(g.winners), "seed": g.seed,
        "hints_used": g.hints_used, "created_at": g.created_at.isoformat(),
        "finished_at": g.finished_at.isoformat() if g.finished_at else None,
        "dice": g.dice, "sitting": g.sitting or g.id, "sitting_game": place[0],
        "sitting_games": place[1],
    }  # fmt: skip


def stats(args: argparse.Namespace) -> int:
    from ..store import stats as query  # noqa: PLC0415

    if args.rules:
        args.rules = RuleSet.named(args.rules).name
    with reading(args) as store:
        found = query(store, args.player, args.rules, args.dice)
    if args.json:
        print_json([s.to_dict() for s in found])
        return 0
    if not found:
        if args.player:
            print(_("No finished games for {player} yet.").format(player=args.player))
        else:
            print(_("No finished games yet."))
        return 0
    for s in found:
        loss = ("" if s.loss_per_decision is None
                else _(", advisor loss {per_decision} per decision ({per_game} per game, "
                       "{reviewed} reviewed)").format(
                    per_decision=decimal(s.loss_per_decision, 2, grouping=False),
                    per_game=decimal(s.loss_per_game or 0.0, 1, grouping=False),
                    reviewed=s.reviewed_games))  # fmt: skip
        print(_("{player}: {games}, average {average} (sd {sd}), best {best}").format(
            player=s.player, games=_games_and_wins(s),
            average=decimal(s.average, 1, grouping=False),
            sd=decimal(s.std_dev, 1, grouping=False), best=s.best))  # fmt: skip
        print("  " + _("upper bonus {upper}, Yahtzee {yahtzee}, Yahtzee bonuses {bonuses}{loss}")
              .format(upper=percent(s.upper_bonus_rate, 0), yahtzee=percent(s.yahtzee_rate, 0),
                      bonuses=s.yahtzee_bonuses, loss=loss))  # fmt: skip
        if s.hinted_games:
            print("  " + _("used hints in {count} of {games} games").format(
                count=s.hinted_games, games=s.games))  # fmt: skip
        if s.entered_games:
            print("  " + _("{count} of {games} games with real dice").format(
                count=s.entered_games, games=s.games))  # fmt: skip
        if s.offline_games:
            print("  " + _("{count} of {games} games played offline (unranked)").format(
                count=s.offline_games, games=s.games))  # fmt: skip
        if s.sittings:
            print("  " + _("sittings (two games or more): {played} played, {won} won").format(
                played=s.sittings, won=s.sittings_won))  # fmt: skip
    return 0


def _games_and_wins(s: PlayerStats) -> str:
    """A player's games and wins, where a game played alone is no win: "5 games, 2 wins",
    "5 games, 1 win of 3 against others", "2 games, played alone"."""
    games = ngettext("{n} game", "{n} games", s.games).format(n=s.games)
    wins = ngettext("{n} win", "{n} wins", s.wins).format(n=s.wins)
    against = s.games - s.solo_games
    if not s.solo_games:
        return _("{games}, {wins}").format(games=games, wins=wins)
    if not against:
        return _("{games}, played alone").format(games=games)
    return _("{games}, {wins} of {against} against others").format(
        games=games, wins=wins, against=against
    )


def highscores(args: argparse.Namespace) -> int:
    from ..store import high_scores  # noqa: PLC0415

    rules = RuleSet.named(args.rules)
    dice = None if args.dice == ALL_DICE else args.dice
    with reading(args) as store:
        found = high_scores(store, rules.name, args.limit, dice)
    if args.json:
        print_json([{"rank": h.rank, "player": h.player, "total": h.total, "game_id": h.game_id,
                     "finished_at": h.finished_at.isoformat(), "dice": h.dice}
                    for h in found])  # fmt: skip
        return 0
    print(_("High scores ({rules} rules, {dice})").format(
        rules=rules.name, dice=_(DICE_WORDS[args.dice])))  # fmt: skip
    for h in found:
        when = f"{h.finished_at:%Y-%m-%d}"
        real = "  " + _("real dice") if dice is None and h.dice == "entered" else ""
        print(f"  {h.rank:2d}. {h.total:4d}  {h.player:<20} {when}  {h.game_id[:8]}{real}")
    if not found:
        print("  " + _("none yet"))
    return 0


def export(args: argparse.Namespace) -> int:
    from ..store import export_csv, export_json  # noqa: PLC0415

    with reading(args) as store:
        text = export_json(store) if args.format == "json" else export_csv(store)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(_("Wrote {file}").format(file=args.out))
    else:
        print(text, end="" if text.endswith("\n") else "\n")
    return 0


def import_(args: argparse.Namespace) -> int:
    from ..store.transfer import import_parsed, parse_export  # noqa: PLC0415

    path = Path(args.file)
    if not path.is_file():
        raise InvalidInput(_("No file at {file}.").format(file=show(args.file)))
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InvalidInput(
            _("{file} is not a yahtzee export (not UTF-8 text).").format(file=show(args.file))
        ) from None
    suffix = path.suffix.lower().lstrip(".")
    games = parse_export(text, suffix if suffix in FORMATS else None)  # before any database
    with open_store(args) as store:
        imported, skipped = import_parsed(store, games)
    print(_("Imported {imported} games ({skipped} already recorded).").format(
        imported=imported, skipped=skipped))  # fmt: skip
    return 0


def _recorded(args: argparse.Namespace) -> tuple[str, GameSummary, Game]:
    """The game named on the command line: its full id, summary and replayed game."""
    with reading(args) as store:
        game_id = store.resolve(args.game_id)
        return game_id, store.summary(game_id), store.load(game_id)


def _sitting(args: argparse.Namespace) -> list[Game]:
    """The games of GAME_ID's sitting, in order (the game alone when it had none)."""
    from ..store import tables  # noqa: PLC0415

    with reading(args) as store:
        game_id = store.resolve(args.game_id)
        sitting = tables.sitting_of_game(store, game_id)
        ids = tables.sitting_games(store, sitting) if sitting else [game_id]
        games = [store.load(one) for one in ids[-MAX_PAD_GAMES:]]
    if any(game.players != games[0].players for game in games):
        raise InvalidInput(_("The sitting's games do not have the same players."))
    return games


def replay(args: argparse.Namespace) -> int:
    from ..render.replay_text import replay_lines  # noqa: PLC0415

    game_id, summary, game = _recorded(args)
    started = f"{summary.created_at:%Y-%m-%d %H:%M}"
    print(_("Game {game} ({rules} rules), started {started}").format(
        game=game_id, rules=summary.rules, started=started))  # fmt: skip
    for line in replay_lines(game):
        print(line)
    return 0


def card(args: argparse.Namespace) -> int:
    from ..render.pad_html import render_pad  # noqa: PLC0415
    from ..render.scorecard_html import render_scorecard  # noqa: PLC0415

    if args.blank == (args.game_id is not None):
        raise InvalidInput(_("Name a GAME_ID, or ask for a --blank pad (not both)."))
    if args.blank:
        page = render_pad(RuleSet.named(args.rules), args.players, args.games)
    elif args.sitting:
        games = _sitting(args)
        page = render_pad(games[0].rules, games[0].players, games)
    else:
        game_id, summary, game = _recorded(args)
        page = render_scorecard(game, game_id=game_id, played=summary.created_at)
    Path(args.html).write_text(page, encoding="utf-8")
    print(_("Wrote {file}").format(file=args.html))
    return 0
