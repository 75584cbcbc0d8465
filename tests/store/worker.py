"""A process that plays random games into a store, saving after every action.

``python -m tests.store.worker URL GAMES SEED`` prints ``saved GAME_ID EVENTS`` after each
commit (flushed), and ``done`` at the end. GAMES = 0 plays until killed.

``python -m tests.store.worker --forks`` imports the package once and then, for each line
``URL GAMES SEED`` it reads, forks a writer that plays as above and says ``pid PID``
first and ``ended PID`` once the writer is gone (killed or done): every line the writer
wrote comes before that. The crash test kills 50 writers a backend; each started afresh
cost a new interpreter's imports (about 0.6 s of CPU), a fork costs next to nothing.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import traceback

from yahtzee import BotSpec, Game, RandomDice
from yahtzee.store import Seat, Store


def say(line: str) -> None:
    """One line out in one write: a kill lands before it or after it, never inside (a
    pipe takes a write of up to 4096 bytes whole; `print` may split a line in two)."""
    os.write(sys.stdout.fileno(), f"{line}\n".encode())


def write(url: str, games: int, seed: int) -> None:
    rng = random.Random(seed)
    store = Store(url)
    played = 0
    while games == 0 or played < games:
        names = [f"w{seed}-a", f"w{seed}-b"][: rng.randint(1, 2)]
        game = Game(names, dice=RandomDice(rng.randrange(2**31)))
        game_id = store.start(game, [Seat(n, BotSpec("random")) for n in names], seed=seed)
        say(f"saved {game_id} {len(game.event_log)}")
        while not game.is_over:
            game.play(rng.choice(list(game.legal_actions())))
            store.save(game_id, game)
            say(f"saved {game_id} {len(game.event_log)}")
        played += 1
    say("done")


def forks() -> None:
    """Fork a writer for each request read, one at a time; report each one's end."""
    for request in sys.stdin:
        url, games, seed = request.split()
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:  # the writer: Ctrl-C and SIGTERM as any process's; never back here
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            code = 0
            try:
                write(url, int(games), int(seed))
            except BaseException:
                traceback.print_exc()
                code = 1
            finally:
                sys.stdout.flush()
                os._exit(code)
        say(f"pid {pid}")
        os.waitpid(pid, 0)
        say(f"ended {pid}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--forks"]:
        forks()
    else:
        write(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
