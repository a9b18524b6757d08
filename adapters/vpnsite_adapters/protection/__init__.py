"""What guards people's data and the sign-ups: the master keys on disk, the erasure journal and the
proof-of-work challenges."""
