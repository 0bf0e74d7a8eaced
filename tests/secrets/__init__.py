import pytest

# The helpers of the cases module assert: their failures are shown like a test's own.
pytest.register_assert_rewrite("tests.secrets.cases")
