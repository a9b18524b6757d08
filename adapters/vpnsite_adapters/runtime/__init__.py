"""What a running process leans on: the real clock and random, work that repeats on a thread, and
log records kept to one line."""
