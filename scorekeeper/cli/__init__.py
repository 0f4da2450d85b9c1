"""Every `flask --app scorekeeper …` command, one module per kind of work.

Each opens its own connection to the app's database (``DATABASE``), so they
work while the app serves; ``restore`` wants the app stopped.
"""

from .backups import backup_command, backups_command, restore_command
from .data import (
    demo_data_command,
    export_command,
    import_command,
    import_rules_command,
    init_db_command,
    recompute_scores_command,
)
from .doctor import doctor_command
from .household import household_command, https_command, passcode_command, service_group

COMMANDS = (
    init_db_command,
    import_rules_command,
    recompute_scores_command,
    export_command,
    import_command,
    backup_command,
    backups_command,
    restore_command,
    demo_data_command,
    passcode_command,
    household_command,
    https_command,
    service_group,
    doctor_command,
)


def init_app(app):
    for command in COMMANDS:
        app.cli.add_command(command)
