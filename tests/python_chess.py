"""Patina through python-chess, the library lichess-bot and many analysis scripts use.

Run by tests/python_chess.rs (which skips it when python-chess is missing), or by hand:
    python3 tests/python_chess.py target/release/patina
Each check prints one line; the first failure raises and exits non-zero.
"""

import sys

import chess
import chess.engine

INFO_ALL = chess.engine.INFO_ALL


def sort_key(score):
    """A PovScore from the side to move as a number, mates beyond any centipawns."""
    return score.relative.score(mate_score=100_000)


def check_analyse_multipv_wdl(engine):
    engine.configure({"UCI_ShowWDL": True, "Threads": 2})
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    for _ in range(3):
        infos = engine.analyse(board, chess.engine.Limit(depth=10), multipv=3, info=INFO_ALL)
        assert len(infos) == 3, infos
        keys = [sort_key(info["score"]) for info in infos]
        assert keys == sorted(keys, reverse=True), f"multipv lines out of order: {keys}"
        firsts = [info["pv"][0] for info in infos]
        assert len(set(firsts)) == 3, f"multipv lines repeat a move: {firsts}"
        for info in infos:
            wdl = info.get("wdl")
            assert wdl is not None and sum(wdl.relative) == 1000, info
    engine.configure({"UCI_ShowWDL": False, "Threads": 1})
    print(f"analyse multipv=3 with WDL: lines {keys}, wdl {infos[0]['wdl'].relative}")


def check_analysis_stopped_by_client(engine):
    board = chess.Board()
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 8 and "pv" in info:
                break
    depth = info.get("depth")
    # Leaving the block sent `stop`; the engine must answer the next command normally.
    engine.ping()
    with engine.analysis(board, chess.engine.Limit(depth=30)) as analysis:
        analysis.stop()
        best = analysis.wait()
    assert best.move in board.legal_moves, best
    print(f"analysis stopped by the client at depth {depth}, then stop() answered {best.move}")


def check_play_with_ponder(path):
    white = chess.engine.SimpleEngine.popen_uci(path)
    black = chess.engine.SimpleEngine.popen_uci(path)
    board = chess.Board()
    engines = {chess.WHITE: white, chess.BLACK: black}
    plies = 0
    try:
        while not board.is_game_over(claim_draw=True) and plies < 300:
            engine = engines[board.turn]
            result = engine.play(board, chess.engine.Limit(time=0.02), ponder=True, info=INFO_ALL)
            assert result.move in board.legal_moves, (board.fen(), result)
            pv = result.info.get("pv")
            assert pv and pv[0] == result.move, f"move {result.move} is not the pv's first {pv}"
            if result.ponder is not None:
                assert pv[1] == result.ponder, (pv, result.ponder)
            board.push(result.move)
            plies += 1
    finally:
        white.quit()
        black.quit()
    outcome = board.outcome(claim_draw=True)
    print(f"play with ponder: {plies} plies, {outcome.termination.name if outcome else 'ply cap'}")


def check_chess960(engine):
    board = chess.Board.from_chess960_pos(759)
    for _ in range(16):
        if board.is_game_over():
            break
        result = engine.play(board, chess.engine.Limit(nodes=20000), info=INFO_ALL)
        assert result.move in board.legal_moves, (board.fen(), result.move)
        assert result.info["pv"][0] == result.move, result.info
        board.push(result.move)
    print(f"Chess960 (position 759): 16 legal plies to {board.fen()}")


def check_mate_limit(engine):
    # A mate in 2 (checked by brute force), none in 1.
    board = chess.Board("r1b2k1r/ppppq3/5N1p/4P2Q/4PP2/1B6/PP5P/n2K2R1 w - - 1 1")
    info = engine.analyse(board, chess.engine.Limit(mate=2))
    assert info["score"].relative == chess.engine.Mate(2), info
    result = engine.play(board, chess.engine.Limit(mate=2))
    assert result.move in board.legal_moves
    print(f"Limit(mate=2): score {info['score'].relative}, plays {result.move}")


def check_stalemate(engine):
    board = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert board.is_stalemate()
    info = engine.analyse(board, chess.engine.Limit(depth=5))
    assert info["score"].relative == chess.engine.Cp(0), info
    result = engine.play(board, chess.engine.Limit(depth=5))
    assert result.move is None, result
    engine.ping()
    print(f"stalemated root: score {info['score'].relative}, move {result.move}")


def main():
    path = sys.argv[1]
    engine = chess.engine.SimpleEngine.popen_uci(path)
    try:
        check_analyse_multipv_wdl(engine)
        check_analysis_stopped_by_client(engine)
        check_chess960(engine)
        check_mate_limit(engine)
        check_stalemate(engine)
    finally:
        engine.quit()
    check_play_with_ponder(path)
    print("python-chess: all checks passed")


if __name__ == "__main__":
    main()
