"""Quality measurements (slot drift, recall ranking) on the labelled sets in tests/data/."""
