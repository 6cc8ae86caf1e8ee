import cv2

from kiosk.game import DECK
from vision.marks import (ALL_IDS, CARD_IDS, FAMILY, MAT_IDS, MIN_DISTANCE, card_dictionary,
                          choose_ids, distance_matrix, min_distance)


def test_card_codes_are_far_apart_including_the_mat_corners():
    assert len(CARD_IDS) == len(DECK) == 48
    assert MIN_DISTANCE >= 13
    assert min_distance(FAMILY, CARD_IDS) == MIN_DISTANCE
    assert min_distance(FAMILY, ALL_IDS) >= MIN_DISTANCE
    assert len(set(ALL_IDS)) == 48 + 8


def test_choose_ids_reproduces_the_measured_distances():
    assert choose_ids("DICT_4X4_50", 48, tries=5)[0] == 4
    assert choose_ids("DICT_5X5_100", 48, tries=5)[0] >= 8


def test_distance_matrix_counts_rotations():
    d = distance_matrix("DICT_4X4_50")
    assert d.shape == (50, 50)
    assert (d == d.T).all()
    assert d.min() >= 1


def test_dictionary_corrects_less_than_half_the_distance():
    d = card_dictionary()
    assert d.bytesList.shape[0] == len(ALL_IDS)
    assert 2 * d.maxCorrectionBits < MIN_DISTANCE
    marker = cv2.aruco.generateImageMarker(d, 47, 160, borderBits=1)
    img = cv2.copyMakeBorder(marker, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255)
    _, ids, _ = cv2.aruco.ArucoDetector(d).detectMarkers(img)
    assert ids.ravel().tolist() == [47]
    assert MAT_IDS["A3"][0] == ALL_IDS[48]
