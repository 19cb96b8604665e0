"""The box on the table's network: a spectator page for a TV and phones as private handsets.

Imported only when ``companion run --web HOST:PORT`` is given. The table
stays the only place that wires a game to a box: it hands this room public
views, reveals, and each seat's own view (served only to that seat's token),
and reads phone answers through the same kind of seam as the wired handsets.
"""
