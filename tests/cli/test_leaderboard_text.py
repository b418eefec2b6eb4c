"""The text leaderboard of ``statlearning compare`` marks the one-SE choice, as JSON does."""

import json

from test_cli import _rows

from statlearning.cli import main
from statlearning.cli._compare import ONE_SE_LEGEND

ARGS = ["compare", "--dataset", "diabetes", "--cv", "3", "--quiet", "--jobs", "1"]
MODELS = ["--models", "linear_regression,knn_regressor,lasso"]


def test_text_marks_the_one_se_choice_like_json(capsys):
    assert main([*ARGS, *MODELS, "--format", "json"]) == 0
    records = json.loads(capsys.readouterr().out)
    chosen = [r["model"] for r in records if any("one-SE choice" in n for n in r["notes"])]
    assert len(chosen) == 1
    assert main([*ARGS, *MODELS]) == 0
    out = capsys.readouterr().out
    assert "\x1b[" not in out  # plain text when not a terminal
    marked = [line for line in out.splitlines() if line.endswith("  one-SE")]
    assert len(marked) == 1 and f"  {chosen[0]}  " in marked[0]
    assert ONE_SE_LEGEND in out.splitlines()
    assert set(_rows(out)) == {"baseline", "linear_regression", "knn_regressor", "lasso"}
