"""Export the records as JSON or CSV, and import such a file back (games are replayed and
checked on the way in; a game already present is skipped when identical)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select, update

from ..core import BotSpec, Category, Edition, Game, InvalidInput, YahtzeeError, check_rolls
from ..core.errors import show
from ..core.language import N_, _
from .daily import daily_days, import_result, revealed_dice_seed
from .engine import reading, retrying
from .schema import cards, games, seats
from .store import Store, append_events, player_id, utc
from .values import ENTERED, ROLLED, Seat

FORMAT = "yahtzee-records"
VERSION = 1
CSV_BOXES = [c.key for c in Category]
"""The box columns of an export of American games only (as every export was before
editions: such a file is the same byte for byte)."""
CSV_FIELDS = [
    "game_id", "rules", "seed", "status", "created_at", "updated_at", "finished_at",
    "hints_used", "seat", "player", "bot", "total", *CSV_BOXES, "yahtzee_bonus", "place",
    "winner", "decisions", "advisor_loss", "seat_hints_used", "sitting", "dice_seed", "daily",
    "offline", "events",
]  # fmt: skip
MAX_SITTING_ID = 36
AMERICAN = Edition.american().name


def csv_fields(editions: Sequence[str]) -> list[str]:
    """The columns of a CSV export holding games of ``editions``: `CSV_FIELDS` when all
    are American; else an ``edition`` column after ``rules`` and every edition's boxes
    (the American first, then each other's new ones in card order; a row leaves the boxes
    of other editions empty)."""
    others = [Edition.named(e) for e in dict.fromkeys(editions) if e != AMERICAN]
    if not others:
        return CSV_FIELDS
    boxes = list(CSV_BOXES)
    for edition in others:
        boxes += [b.key for b in edition.boxes if b.key not in boxes]
    fields = [f for f in CSV_FIELDS if f not in CSV_BOXES]
    fields.insert(fields.index("rules") + 1, "edition")
    at = fields.index("total") + 1
    return [*fields[:at], *boxes, *fields[at:]]


def export_games(store: Store, only: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Every recorded game (``only``: those of these ids), the oldest first."""
    chosen = select(games.c.id).order_by(games.c.created_at)
    reviewed = select(cards.c.game_id, cards.c.seat, cards.c.decisions, cards.c.advisor_loss)
    if only is not None:
        chosen = chosen.where(games.c.id.in_(list(only)))
        reviewed = reviewed.where(cards.c.game_id.in_(list(only)))
    with reading(store.engine) as connection:
        ids = [r[0] for r in connection.execute(chosen)]
        review_rows = connection.execute(reviewed)
        reviews = {(r.game_id, r.seat): (r.decisions, r.advisor_loss) for r in review_rows}
    result = []
    today = datetime.now(UTC).date()
    days = daily_days(store)
    for summary in store.summaries(ids):
        log = store.event_log(summary.id)
        game = Game.replay(log)
        finished = game.is_over
        standings = {s.player: s for s in game.standings()} if finished else {}
        hinted = store.hinted_seats(summary.id)
        result.append(
            {
                "id": summary.id,
                "rules": summary.rules,
                **({} if summary.edition == AMERICAN else {"edition": summary.edition}),
                "seed": summary.seed,
                "status": summary.status,
                "created_at": summary.created_at.isoformat(),
                "updated_at": summary.updated_at.isoformat(),
                "finished_at": summary.finished_at.isoformat() if summary.finished_at else None,
                "hints_used": summary.hints_used,
                "sitting": summary.sitting or summary.id,
                "dice_seed": revealed_dice_seed(store, summary.id, today),
                "daily": days.get(summary.id),
                "offline": summary.offline,
                "seats": [
                    {
                        "seat": index,
                        "player": seat.name,
                        "bot": seat.bot.key if seat.bot else None,
                        "hints_used": index in hinted,
                        "card": game.cards[index].to_dict(),
                        "place": standings[index].place if finished else None,
                        "winner": standings[index].winner if finished else None,
                        "decisions": reviews.get((summary.id, index), (None, None))[0],
                        "advisor_loss": reviews.get((summary.id, index), (None, None))[1],
                    }
                    for index, seat in enumerate(store.seats_of(summary.id))
                ],
                "events": log,
            }
        )
    return result


def export_json(store: Store) -> str:
    """Every recorded game as a JSON export (full event logs, so an import re-checks each game)."""
    data = {"format": FORMAT, "version": VERSION, "games": export_games(store)}
    return json.dumps(data, indent=1) + "\n"


def export_csv(store: Store) -> str:
    """One row per seat; every row carries its game's event log, so the file imports."""
    out = io.StringIO()
    exported = export_games(store)
    fields = csv_fields([game.get("edition", AMERICAN) for game in exported])
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n", restval="")
    writer.writeheader()
    for game in exported:
        edition = {"edition": game.get("edition", AMERICAN)} if "edition" in fields else {}
        for seat in game["seats"]:
            card = seat["card"]
            writer.writerow(
                {
                    "game_id": game["id"], "rules": game["rules"], **edition,
                    "seed": game["seed"] or "",
                    "status": game["status"], "created_at": game["created_at"],
                    "updated_at": game["updated_at"], "finished_at": game["finished_at"] or "",
                    "hints_used": int(game["hints_used"]), "seat": seat["seat"],
                    "player": seat["player"], "bot": seat["bot"] or "", "total": card["total"],
                    **{k: "" if v is None else v for k, v in card["boxes"].items()},
                    "yahtzee_bonus": card["yahtzee_bonus"],
                    "place": "" if seat["place"] is None else seat["place"],
                    "winner": "" if seat["winner"] is None else int(seat["winner"]),
                    "decisions": "" if seat["decisions"] is None else seat["decisions"],
                    "advisor_loss": "" if seat["advisor_loss"] is None else seat["advisor_loss"],
                    "seat_hints_used": int(seat["hints_used"]), "sitting": game["sitting"],
                    "dice_seed": game["dice_seed"] or "", "daily": game["daily"] or "",
                    "offline": int(game["offline"]),
                    "events": json.dumps(game["events"], separators=(",", ":")),
                }
            )  # fmt: skip
    return out.getvalue()


def _from_csv(text: str) -> list[dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None or "events" not in reader.fieldnames:
        raise InvalidInput(_("This file is not a yahtzee CSV export (it has no 'events' column)."))
    if _ends_mid_row(text):  # every export ends with a line break: even a whole last cell
        raise InvalidInput(_(_CUT))
    for row in reader:
        if None in row.values() or None in row:  # a row with fewer or more cells than the header
            raise InvalidInput(_(_CUT if _ends_mid_row(text) else _BAD_ROW))
        try:
            events = json.loads(row["events"])
        except ValueError:
            raise InvalidInput(_(_CUT if _ends_mid_row(text) else _BAD_ROW)) from None
        game = found.setdefault(
            row["game_id"],
            {
                "id": row["game_id"], "rules": row["rules"],
                **({"edition": row["edition"]} if row.get("edition") else {}),
                "seed": row["seed"] or None,
                "status": row["status"], "created_at": row["created_at"],
                "updated_at": row["updated_at"], "finished_at": row["finished_at"] or None,
                "hints_used": row["hints_used"] == "1", "seats": [], "events": events,
                "sitting": row.get("sitting") or None, "dice_seed": row.get("dice_seed") or None,
                "daily": row.get("daily") or None, "offline": row.get("offline") == "1",
            },
        )  # fmt: skip
        game["seats"].append(
            {
                "seat": int(row["seat"]), "player": row["player"], "bot": row["bot"] or None,
                "decisions": int(row["decisions"]) if row["decisions"] else None,
                "advisor_loss": float(row["advisor_loss"]) if row["advisor_loss"] else None,
                "hints_used": row.get("seat_hints_used") == "1",
            }
        )  # fmt: skip
    return list(found.values())


CUT_TAIL = 5
"""At most this many characters after where a JSON reader stopped: the file was cut there
(``tru`` of ``true``, say)."""
_CUT = N_(
    "This export is cut short: the file ends in the middle of a game. "
    "Export the records again, or import a complete copy."
)
_BAD_ROW = N_("This export is damaged: a row of it cannot be read as a yahtzee game.")


def _ends_mid_row(text: str) -> bool:
    """Whether a CSV file was cut: an export ends with a whole row and a line break."""
    return not text.endswith("\n")


def _cut(text: str, error: json.JSONDecodeError) -> bool:
    """Whether JSON that will not read is a file cut short: what stopped the reader is its
    end (a string left open, or at most a word of the file after the point it stopped)."""
    return error.msg.startswith("Unterminated string") or len(text[error.pos :].strip()) <= CUT_TAIL


def _from_json(text: str) -> list[dict[str, Any]]:
    if not text.strip():
        raise InvalidInput(_("This file is not a yahtzee JSON export: the file is empty."))
    try:
        data = json.loads(text)
    except RecursionError:
        raise InvalidInput(
            _("This file is not a yahtzee JSON export: it nests too deeply.")
        ) from None
    except json.JSONDecodeError as error:
        if not text.lstrip().startswith("{"):
            raise InvalidInput(
                _("This file is not a yahtzee JSON export: it is not JSON at all.")
            ) from None
        if _cut(text, error):
            raise InvalidInput(_(_CUT)) from None
        line = error.lineno
        raise InvalidInput(
            _("This export is damaged: it stops being JSON at line {line}.").format(line=line)
        ) from None
    except ValueError:  # a number too long to read, say
        raise InvalidInput(_("This export is damaged: it holds a value no export has.")) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidInput(
            _("This file is not a yahtzee JSON export: it has JSON, but not the records' format.")
        )
    if data.get("version") != VERSION:
        raise InvalidInput(
            _("Export version {version} is not supported (only {supported}).").format(
                version=show(data.get("version")), supported=VERSION
            )
        )
    games_ = data.get("games")
    if not isinstance(games_, list):
        raise InvalidInput(_("The export has no list of games."))
    return games_


def parse_export(text: str, fmt: str | None = None) -> list[dict[str, Any]]:
    """The games of an export file: ``fmt`` ``"json"`` or ``"csv"`` (as the file's name
    says), else told apart by the first character (``{`` or ``[``: JSON)."""
    if fmt is None:
        fmt = "json" if text.lstrip()[:1] in {"{", "["} or not text.strip() else "csv"
    if fmt == "json":
        return _from_json(text)
    if fmt != "csv":
        raise InvalidInput(_("Exports are JSON or CSV, not {fmt}.").format(fmt=show(fmt)))
    try:
        return _from_csv(text)
    except (ValueError, KeyError, TypeError, csv.Error) as error:
        if isinstance(error, YahtzeeError):
            raise
        raise InvalidInput(_BAD_ROW) from None


def import_games(store: Store, text: str, fmt: str | None = None) -> tuple[int, int]:
    """Import every game of an export (``fmt``: see `parse_export`); returns
    (imported, skipped as already present)."""
    return import_parsed(store, parse_export(text, fmt))


def import_parsed(store: Store, items: list[dict[str, Any]]) -> tuple[int, int]:
    """Import the games `parse_export` read; returns (imported, skipped). An edition no
    game can be played on is refused before any game is imported."""
    for number, item in enumerate(items, start=1):
        try:
            _edition_of(item)
        except YahtzeeError as error:
            raise InvalidInput(
                _("Game {number} of the file: {error}").format(number=number, error=error)
            ) from None
    imported = skipped = 0
    for number, item in enumerate(items, start=1):
        try:
            done = _import_one(store, item)
        except YahtzeeError as error:
            raise InvalidInput(
                _("Game {number} of the file: {error}").format(number=number, error=error)
            ) from None
        except (KeyError, TypeError, ValueError, AttributeError):
            raise InvalidInput(
                _("Game {number} of the file is malformed.").format(number=number)
            ) from None
        imported += done
        skipped += not done
    return imported, skipped


def _import_one(store: Store, item: dict[str, Any]) -> bool:
    game_id = str(item["id"])
    dice_seed = item.get("dice_seed")
    if dice_seed is not None:  # a tampered roll or seed: refused, saying so, first
        check_rolls(dice_seed, item["events"])
    game = Game.replay(item["events"])
    edition = _edition_of(item)
    if game.rules.edition != edition:
        raise InvalidInput(
            _(
                "it says it is a game of {title} ({edition_name}), but its rules "
                "{rules_name!r} are {edition}'s."
            ).format(
                title=edition.display_title,
                edition_name=edition.name,
                rules_name=game.rules.name,
                edition=game.rules.edition.display_title,
            )
        )
    seats_ = sorted(item["seats"], key=lambda s: s["seat"])
    chosen = [Seat(s["player"], BotSpec.parse(s["bot"]) if s.get("bot") else None) for s in seats_]
    if [s.name for s in chosen] != list(game.players):
        raise InvalidInput(_("its seats do not match its event log."))
    try:
        existing = store.event_log(game_id)
    except YahtzeeError:
        existing = []
    if existing:
        if existing != game.events:
            raise InvalidInput(
                _("a different game {game_id} is already in the records.").format(game_id=game_id)
            )
        return False
    sitting = item.get("sitting") or game_id
    if not isinstance(sitting, str) or len(sitting) > MAX_SITTING_ID:
        raise InvalidInput(
            _("its sitting is an id of at most {most} characters.").format(most=MAX_SITTING_ID)
        )
    created, updated = _stamp(item["created_at"]), _stamp(item["updated_at"])
    finished = _stamp(item["finished_at"]) if item.get("finished_at") else None

    def work() -> None:
        with store.engine.begin() as connection:
            connection.execute(
                insert(games).values(
                    id=game_id, rules=game.rules.name, edition=game.rules.edition.name,
                    seed=item.get("seed"),
                    status="finished" if game.is_over else "active", created_at=created,
                    updated_at=updated, finished_at=finished, event_count=0,
                    hints_used=bool(item.get("hints_used")), sitting=sitting,
                    dice=ENTERED if game.entered else ROLLED, dice_seed=dice_seed,
                    offline=item.get("offline") is True,
                )
            )  # fmt: skip
            for index, seat in enumerate(chosen):
                connection.execute(
                    insert(seats).values(game_id=game_id, seat=index, kind=seat.kind,
                                         bot=seat.bot.key if seat.bot else None,
                                         player_id=player_id(connection, seat.name),
                                         hints_used=bool(seats_[index].get("hints_used")))
                )  # fmt: skip
            append_events(connection, game_id, game, 0)
            connection.execute(
                update(games).where(games.c.id == game_id).values(updated_at=updated,
                                                                  finished_at=finished)
            )  # fmt: skip
            if item.get("daily") is not None:
                loss = seats_[0].get("advisor_loss") if seats_ else None
                import_result(connection, item["daily"], game_id, game, dice_seed=dice_seed,
                              loss=loss, started=created, finished=finished)  # fmt: skip
            for seat in seats_:
                if seat.get("advisor_loss") is not None:
                    connection.execute(
                        update(cards)
                        .where(cards.c.game_id == game_id, cards.c.seat == seat["seat"])
                        .values(decisions=seat.get("decisions"), advisor_loss=seat["advisor_loss"])
                    )

    retrying(work)
    return True


def _edition_of(item: object) -> Edition:
    """The edition an exported game names (none named: American, as every export made
    before editions)."""
    if not isinstance(item, dict):
        return Edition.american()
    return Edition.named(item.get("edition", AMERICAN))


def _stamp(text: str) -> datetime:
    return utc(datetime.fromisoformat(text))
