"""Card and betting abstractions of the full game: buckets per street, the betting grammar."""
