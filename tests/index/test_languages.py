from __future__ import annotations

import pytest

from repomem.index.languages import detect, is_test_path, name_parts


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("app/src/main/kotlin/Cart.kt", "kotlin"),
        ("build.gradle.kts", "kotlin"),
        ("Source/Session.swift", "swift"),
        ("core/src/main/scala/sttp/client4/Request.scala", "scala"),
        ("build.sc", "scala"),
        ("lua/plenary/path.lua", "lua"),
        ("scripts/deploy.sh", "bash"),
        ("completions/tool.bash", "bash"),
        ("scripts/setup.zsh", "shell"),
    ],
)
def test_sources_are_detected_by_extension(path: str, language: str) -> None:
    assert detect(path) == language


@pytest.mark.parametrize(
    ("path", "test"),
    [
        ("tests/test_app.py", True),
        ("okhttp/src/test/kotlin/okhttp3/CallTest.kt", True),
        ("okhttp/src/jvmTest/kotlin/okhttp3/Cache.kt", True),
        ("app/src/androidTest/java/com/shop/CartScreen.kt", True),
        ("lib/CartTest.kt", True),
        ("lib/CartTests.java", True),
        ("lib/CartIT.java", True),
        ("okhttp/src/jvmMain/kotlin/okhttp3/Cache.kt", False),
        ("okhttp/src/main/kotlin/okhttp3/internal/TestOnly.kt", False),
        ("lib/Contest.kt", False),
        ("Tests/AlamofireTests/SessionTests.swift", True),
        ("Example/iOS ExampleUITests/Launch.swift", True),
        ("Sources/Shop/CartTests.swift", True),
        ("Source/Core/Session.swift", False),
        ("Source/Features/Protests.swift", False),
        ("core/src/test/scala/sttp/client4/UriTests.scala", True),
        ("core/src/main/scalajvm/sttp/RequestSpec.scala", True),
        ("core/src/main/scala/sttp/BackendSuite.scala", True),
        ("core/src/main/scala/sttp/client4/Request.scala", False),
        ("lua/plenary/path_spec.lua", True),
        ("lua/plenary/path.lua", False),
        ("scripts/deploy_test.sh", True),
    ],
)
def test_test_files_are_recognised_by_each_language_s_conventions(path: str, test: bool) -> None:
    assert is_test_path(path) is test


def test_a_qualified_name_splits_however_its_language_joins_it() -> None:
    assert name_parts("Cart.Companion.empty()") == ["Cart", "Companion", "empty"]
    assert name_parts("Job:start") == ["Job", "start"]
