"""One `agent dev` per data directory: a real OS lock, refused while another process holds it, and free
again once that process is gone, even killed without a chance to clean up."""

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.embedded.lock import DataDirInUse, DataDirLock

HOLD = """
import sys, time
from pathlib import Path
from adapters.embedded.lock import DataDirLock
lock = DataDirLock(Path(sys.argv[1]))
print("held", flush=True)
time.sleep(120)
"""

REPO = Path(__file__).resolve().parents[2]


def test_a_second_holder_is_refused_naming_the_data_dir_until_the_first_is_killed(tmp_path: Path) -> None:
    data_dir = tmp_path / "dev"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(data_dir)], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(DataDirInUse) as refused:
            DataDirLock(data_dir)
        assert str(data_dir.resolve()) in str(refused.value)
        assert f"process {holder.pid}" in str(refused.value)
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=10)
    finally:
        holder.kill()
    with DataDirLock(data_dir), pytest.raises(DataDirInUse):
        DataDirLock(data_dir)
    # Released on exit: the next start holds it.
    DataDirLock(data_dir).close()
