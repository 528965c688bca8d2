#!/usr/bin/env python3
"""Play a short game with the PyPI `cchess` library's own engine drivers:
Red is driven by `UcciEngine`, Black by `UciEngine`, both running the engine
under test. Every move is checked against cchess's rules; exits non-zero on
an illegal move, a dead engine or a timeout.

    python3 cchess_game.py ENGINE [PLIES]
"""
import sys
import time

from cchess import FULL_INIT_FEN, ChessBoard, UcciEngine, UciEngine


def wait_ready(engine, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        a = engine.get_action()
        if a and a.get("action") == "ready":
            return
        time.sleep(0.01)
    sys.exit(f"{engine.__class__.__name__}: no ready")


def best_move(engine, fen, params, timeout=30):
    engine.go_from(fen, params)
    end = time.time() + timeout
    while time.time() < end:
        a = engine.get_action()
        if a is None:
            time.sleep(0.005)
            continue
        if a["action"] == "bestmove":
            return a["move"]
        if a["action"] in ("dead", "draw"):
            return None
    sys.exit(f"{engine.__class__.__name__}: no bestmove within {timeout} s for {fen}")


def main():
    path = sys.argv[1]
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    red, black = UcciEngine(), UciEngine()
    for e in (red, black):
        if not e.load(path):
            sys.exit("cannot load the engine")
        wait_ready(e)
    red.set_option("Hash", 16)
    black.set_option("Hash", 16)
    board = ChessBoard(FULL_INIT_FEN)
    played = []
    for ply in range(plies):
        fen = board.to_fen()
        engine = red if ply % 2 == 0 else black
        params = {"depth": 4} if ply % 4 < 2 else {"movetime": 100}
        move = best_move(engine, fen, params)
        if move is None:
            print(f"game over at ply {ply}: no move for the side to move")
            break
        if not board.is_valid_iccs_move(move):
            sys.exit(f"illegal move {move} at ply {ply} in {fen}")
        board.move_iccs(move)
        board.next_turn()
        played.append(move)
        if board.is_checkmate():
            print(f"checkmate after {move}")
            break
    for e in (red, black):
        e.quit()
    print(f"{len(played)} legal moves: {' '.join(played)}")


if __name__ == "__main__":
    main()
