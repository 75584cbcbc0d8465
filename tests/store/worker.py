"""A process that plays random games into a store, saving after every action.

``python -m tests.store.worker URL GAMES SEED`` prints ``saved GAME_ID EVENTS`` after each
commit (flushed), and ``done`` at the end. GAMES = 0 plays until killed.
"""

from __future__ import annotations

import random
import sys

from yahtzee import BotSpec, Game, RandomDice
from yahtzee.store import Seat, Store


def main() -> None:
    url, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    store = Store(url)
    played = 0
    while games == 0 or played < games:
        names = [f"w{seed}-a", f"w{seed}-b"][: rng.randint(1, 2)]
        game = Game(names, dice=RandomDice(rng.randrange(2**31)))
        game_id = store.start(game, [Seat(n, BotSpec("random")) for n in names], seed=seed)
        print(f"saved {game_id} {len(game.event_log)}", flush=True)
        while not game.is_over:
            game.play(rng.choice(list(game.legal_actions())))
            store.save(game_id, game)
            print(f"saved {game_id} {len(game.event_log)}", flush=True)
        played += 1
    print("done", flush=True)


if __name__ == "__main__":
    main()
