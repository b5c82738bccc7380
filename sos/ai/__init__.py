"""The computer player: search, exact solver, levels and review analysis (pure, standard library).

- :mod:`sos.ai.search`: bitboard positions, alpha-beta with a transposition table, quiescence.
- :mod:`sos.ai.solver`: the exact solver (proofs, opening books ``book_<rows>x<cols>.txt``).
- :mod:`sos.ai.agents`: the levels (easy, medium, hard, perfect) and hints.
- :mod:`sos.ai.review`: a finished game's review (values, verdicts, accuracy).

The page reaches these only through :mod:`sos.app`.
"""
