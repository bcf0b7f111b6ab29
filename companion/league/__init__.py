"""Several tables, one league: each table's folder of ended games, kept in step by Syncthing and taken in
through restore's own code."""
