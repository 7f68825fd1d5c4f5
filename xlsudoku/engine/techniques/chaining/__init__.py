"""Chains: one vocabulary of potentials, one implication engine, one module per kind of chain.

Read top-down:

- ``potential``: the vocabulary.  A *candidate* is a digit in a cell, a *potential* a candidate
  assumed on or off, each packed in one int (``on(cell, digit, size)``, ``negation(p)``, ...).
- ``links``: a board's links, what each potential makes on or off by the plain rules (X: a
  digit's places in houses; Y: a cell's digits), in Sudoku Explainer's order.
- ``implication``: the engine.  From one assumed potential it follows a :class:`ChainKind`'s
  rules (static or dynamic, with or without the Y rules, extra rules when those run dry) to
  every potential that follows, with the potentials each rests on.
- ``rating``: SE's ratings (base + length increment) and a conclusion as a step.

The kinds of chain, each a small module on top:

- ``aic``: alternating inference chains, X- and XY-Chains (the human-style table's chains);
- ``human_forcing``: the human-style table's forcing chains, shortest first;
- ``cycles`` and ``forcing``: SE's bidirectional cycles and forcing chains (6.5-7.0);
- ``search``: SE's search of the multiple chains (contradictions, double, cell and region
  chains) for any kind, and ``chain_finder(kind)``;
- ``nishio`` (7.5), ``multiple`` (8.0), ``dynamic`` (8.5, and 9.0 with the patterns the
  technique registry gives as extra rules), ``nested`` (9.5 and up).
"""
