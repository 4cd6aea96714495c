"""Stop a search, save its position as JSON, and go on later; split a count in parallel.

Run: python examples/resume_and_split.py
"""

import json

from lazysearch import queens

stream = queens(10)
head = stream.take(100)
saved = json.dumps(stream.checkpoint())  # a few hundred bytes of plain JSON

later = queens(10).resume(json.loads(saved))
rest = later.count()
print(
    f"read {len(head)} solutions, stopped, resumed, counted {rest} more: {len(head) + rest} in all"
)

# The same count split into subtrees and summed in two processes.
print("in parallel:", queens(10).count(workers=2))
