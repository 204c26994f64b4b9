"""The embedded Temporal dev server's command line."""

from pathlib import Path

from adapters.embedded.temporal import dev_server_command


def test_the_dev_server_dispatches_activities_eagerly() -> None:
    command = dev_server_command(Path("/nowhere"), port=7233, ui_port=8233, headless=True)

    values = [command[i + 1] for i, flag in enumerate(command) if flag == "--dynamic-config-value"]

    assert "system.enableActivityEagerExecution=true" in values
