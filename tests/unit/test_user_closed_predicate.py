"""The partial indexes over user-closed beliefs are frozen SQL; they must name exactly the domain's reasons."""

import re

from adapters.postgres.tables import USER_CLOSED_WHERE
from domain.beliefs.records import USER_CLOSED_REASONS


def test_user_closed_index_predicate_lists_exactly_the_user_closed_reasons() -> None:
    listed = set(re.findall(r"'([a-z_]+)'", USER_CLOSED_WHERE))
    assert listed == {reason.value for reason in USER_CLOSED_REASONS}
