from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STRATEGIES = ROOT / "strategies"
