import cv2
import pytest

from vision.reader import PileReader


@pytest.fixture(scope="session")
def reader():
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
