import cv2
import pytest

from vision.reader import PileReader


@pytest.fixture
def reader():
    """A reader of its own for each test: a reader follows one camera (it keeps the mat's
    region from frame to frame, ``vision.matregion``), so one shared by unrelated scenes made
    a test's result depend on the tests that ran before it in its worker."""
    return PileReader()


def write_scene(scene, path):
    scene.write(path)
    return path


@pytest.fixture
def one_core():
    n = cv2.getNumThreads()
    cv2.setNumThreads(1)
    yield
    cv2.setNumThreads(n)
