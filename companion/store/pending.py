"""Writes waiting for a writable journal, written whole (one transaction) at the next try.

While the journal cannot be written only the newest state of a game matters, but every
reveal is kept: a step replaces the step still waiting, carrying its reveals along."""

from __future__ import annotations

from companion.store.records import Begin, Finish, Shown, Step, Write


class Pending:
    """The queue of writes, in order."""

    def __init__(self) -> None:
        self.ops: list[Write] = []

    def __bool__(self) -> bool:
        return bool(self.ops)

    def begun(self) -> bool:
        """Whether a new game waits to be begun."""
        return any(isinstance(op, Begin) for op in self.ops)

    def add(self, op: Write) -> None:
        self.ops.append(op)

    def step(self, step: Step) -> None:
        """A step, replacing the one still waiting (its reveals kept) or the reveal update
        of the step it follows."""
        if self.ops and isinstance(last := self.ops[-1], Step):
            step = Step(step.record, step.shown, last.reveals + step.reveals)
            self.ops.pop()
        elif self.ops and isinstance(self.ops[-1], Shown):
            self.ops.pop()  # the step it updates is still queued: superseded
        self.ops.append(step)

    def shown(self, shown: str | None) -> None:
        """The reveal still on show after the newest step."""
        if self.ops and isinstance(last := self.ops[-1], Step):
            self.ops[-1] = Step(last.record, shown, last.reveals)
        else:
            self.ops.append(Shown(shown))

    def again(self, ops: list[Write]) -> None:
        """Start over in a new file with ``ops`` (the game so far), keeping its ending."""
        self.ops = [*ops, *(op for op in self.ops if isinstance(op, Finish))]

    def clear(self) -> None:
        self.ops = []
