"""TableControls on gpiozero's own MockFactory: press, hold and bounce the mock pins; read
the LED, light and buzzer sequences back from the mock pins' recorded state histories.
Holds are gpiozero's own (``hold_time`` / ``when_held``), timed in real time."""

from __future__ import annotations

import threading
import time

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware import GPIOUnavailableError, HardwareError, PinConfigError, UnknownStatusError
from hardware import pins as pins_module
from hardware.bridge import call_on
from hardware.controls import CHORD, ERROR, TableControls, from_settings
from hardware.pins import detect_gpio, gpio_chips, make_pin_factory
from kiosk.settings import Settings

BOUNCE_MS = 40
HOLD = 0.3
SETTLE = BOUNCE_MS / 1000 + 0.08  # longer than the bounce time: the next edge counts again


class FrequencyPin(MockPWMPin):
    """A MockPWMPin that also records the PWM frequencies it was given (for pitch checks),
    and applies ``bounce`` to its edges.

    gpiozero's MockPin keeps the ``bounce`` a Button gives it but does not apply it ("XXX
    Need to implement this"); every real pin driver must. This one does what gpiozero's
    ``Pin.bounce`` documents: after an edge is reported, edges for ``bounce`` seconds are
    not. The level itself still changes (and is recorded) on every drive.
    """

    def __init__(self, factory, info):
        self.frequencies = []
        self._reported = float("-inf")
        super().__init__(factory, info)

    def _set_frequency(self, value):
        super()._set_frequency(value)
        if value is not None:
            self.frequencies.append(value)

    def _call_when_changed(self):
        now = time.monotonic()
        if self._bounce and now - self._reported < self._bounce:
            return
        self._reported = now
        super()._call_when_changed()


@pytest.fixture
def factory():
    f = MockFactory(pin_class=FrequencyPin)
    yield f
    f.close()


@pytest.fixture
def controls(factory):
    c = TableControls(pin_factory=factory, bounce_ms=BOUNCE_MS, hold_seconds=HOLD)
    yield c
    c.close()


class Counter:
    def __init__(self):
        self.count = 0
        self.threads = []
        self.event = threading.Event()

    def __call__(self):
        self.count += 1
        self.threads.append(threading.current_thread())
        self.event.set()


def press(pin, seconds=0.05):
    pin.drive_low()
    time.sleep(seconds)
    pin.drive_high()


def bounce(pin, end_low: bool):
    """Contact bounce: several edges in quick succession (well inside bounce_ms)."""
    for _ in range(3):
        pin.drive_low()
        pin.drive_high()
    if end_low:
        pin.drive_low()


def wait_for(condition, timeout=3.0):
    """Wait for background callbacks (debounce timers run late on a busy machine)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def on_periods(states):
    """Turn a pin's state history into [(value, seconds it lasted)] for the non-zero spans."""
    out = []
    for (_, value), (duration, _) in zip(states, states[1:]):
        if value:
            out.append((value, duration))
    return out


def test_a_short_press_fires_scan_and_confirm_once(controls, factory):
    scan, confirm = Counter(), Counter()
    controls.when_scan, controls.when_confirm = scan, confirm
    press(factory.pin(17))
    press(factory.pin(27))
    assert wait_for(lambda: scan.count and confirm.count)
    time.sleep(SETTLE)
    assert (scan.count, confirm.count) == (1, 1)


def test_debounce_and_hold_are_gpiozero_s_own(controls, factory):
    """bounce_ms and hold_seconds reach gpiozero's Button (and so the pin driver)."""
    buttons = controls._buttons
    assert factory.pin(17).bounce == factory.pin(22).bounce == pytest.approx(BOUNCE_MS / 1000)
    assert buttons.undo.hold_time == HOLD and not buttons.undo.hold_repeat
    assert buttons.scan.pin is factory.pin(17) and buttons.confirm.pin is factory.pin(27)


def test_a_bouncing_press_and_release_count_as_one_press(controls, factory):
    scan = Counter()
    controls.when_scan = scan
    pin = factory.pin(17)
    bounce(pin, end_low=True)          # pressing: bounces, then stays down
    assert wait_for(lambda: scan.count)
    time.sleep(SETTLE)                 # a finger stays down longer than the bounce time
    bounce(pin, end_low=False)         # releasing: bounces, then stays up
    time.sleep(SETTLE)
    assert scan.count == 1
    press(pin)                         # the next real press still counts
    assert wait_for(lambda: scan.count == 2)
    time.sleep(SETTLE)
    assert scan.count == 2


def test_without_debounce_the_same_bounce_fires_every_edge(factory):
    with TableControls(pin_factory=factory, bounce_ms=0, hold_seconds=HOLD) as controls:
        scan = Counter()
        controls.when_scan = scan
        bounce(factory.pin(17), end_low=True)
        factory.pin(17).drive_high()
        assert scan.count == 4


def test_short_undo_is_undo_and_not_settings(controls, factory):
    undo, settings = Counter(), Counter()
    controls.when_undo, controls.when_settings = undo, settings
    press(factory.pin(22), 0.08)
    assert wait_for(lambda: undo.count)
    time.sleep(SETTLE)
    assert (undo.count, settings.count) == (1, 0)


def test_holding_undo_opens_settings_and_is_not_also_an_undo(controls, factory):
    undo, settings = Counter(), Counter()
    controls.when_undo, controls.when_settings = undo, settings
    pin = factory.pin(22)
    pressed_at = time.monotonic()
    bounce(pin, end_low=True)
    assert settings.event.wait(HOLD + 1)
    assert time.monotonic() - pressed_at >= HOLD * 0.9  # not before hold_time
    assert settings.count == 1 and settings.threads[0] is not threading.main_thread()  # gpiozero's hold thread
    time.sleep(HOLD)                    # held longer: no repeat
    bounce(pin, end_low=False)
    time.sleep(SETTLE)
    assert (undo.count, settings.count) == (0, 1)
    time.sleep(SETTLE)
    press(pin, 0.08)                    # and the next short press is an undo again
    assert wait_for(lambda: undo.count == 1)
    assert settings.count == 1


def test_a_failing_callback_does_not_stop_the_button(controls, factory, caplog):
    calls = []

    def boom():
        calls.append(1)
        raise RuntimeError("ui gone")

    controls.when_scan = boom
    press(factory.pin(17))
    assert wait_for(lambda: len(calls) == 1)
    time.sleep(SETTLE)                 # a finger needs longer than bounce_ms to press again
    press(factory.pin(17))
    assert wait_for(lambda: len(calls) == 2)
    assert "when_scan callback failed" in caplog.text


def test_light_is_on_at_its_brightness_only_while_reading(factory):
    with TableControls(pin_factory=factory, light_brightness=0.6) as controls:
        pin = factory.pin(18)
        pin.clear_states()
        with controls.reading():
            assert pin.state == pytest.approx(0.6)
            with controls.light.reading():      # an overlapping read keeps it on
                pass
            assert pin.state == pytest.approx(0.6)
        assert [s.state for s in pin.states] == [0.0, pytest.approx(0.6), 0.0]


def test_status_led_colours(controls, factory):
    red, green, blue = factory.pin(5), factory.pin(6), factory.pin(13)
    for status in ("ready", "attention", "fault", "off"):
        controls.status = status
    assert [s.state for s in red.states] == [0, 1.0, 0.0]
    assert [s.state for s in green.states] == [0, 1.0, pytest.approx(0.45), 0.0]
    assert [s.state for s in blue.states] == [0]
    with pytest.raises(UnknownStatusError):
        controls.status = "green"


def test_buzzer_tick_chord_and_error_are_background_sequences(controls, factory):
    pin = factory.pin(12)
    pin.clear_states()
    pin.frequencies.clear()
    started = time.monotonic()
    controls.buzzer.tick()
    controls.buzzer.chord()
    assert time.monotonic() - started < 0.05      # non-blocking
    assert controls.buzzer.wait(3)
    tick_and_chord = on_periods(pin.states)
    assert len(tick_and_chord) == 5               # one tick + four chord notes
    assert all(v == 0.5 for v, _ in tick_and_chord)
    assert tick_and_chord[0][1] < 0.15            # a tick is short (25 ms; slack for a busy CI)
    assert tick_and_chord[-1][1] >= 0.18          # the chord ends on a long note
    chord_freqs = pin.frequencies[1:]
    assert chord_freqs == [f for f, _ in CHORD if f] and chord_freqs == sorted(chord_freqs)
    assert pin.state == 0

    pin.clear_states()
    pin.frequencies.clear()
    controls.buzzer.error()
    assert controls.buzzer.wait(3)
    error = on_periods(pin.states)
    assert len(error) == 2 and error[1][1] >= 0.25
    assert pin.frequencies == [f for f, _ in ERROR if f]
    assert pin.frequencies[0] > pin.frequencies[1]  # falling: sounds like "no"


def test_error_jumps_the_queue_and_ticks_are_bounded(controls, factory):
    pin = factory.pin(12)
    for _ in range(50):
        controls.buzzer.tick()
    controls.buzzer.error()
    assert controls.buzzer.wait(3)
    # at most the tick already playing sounds before the error
    assert len(on_periods(pin.states)) <= 3


def test_close_releases_every_pin(factory):
    controls = TableControls(pin_factory=factory)
    controls.status = "ready"
    controls.close()
    controls.close()  # idempotent
    assert controls.closed
    assert factory.pin(6).state == 0
    for number in (17, 27, 22, 18, 5, 6, 13, 12):
        Button(number, pin_factory=factory).close()  # free again


def test_bad_pin_maps_are_refused_with_the_setting_named(factory):
    with pytest.raises(PinConfigError, match="scan_pin.*confirm_pin.*17"):
        TableControls(pin_factory=factory, confirm_pin=17)
    with pytest.raises(ValueError, match="BCM 0-27"):
        TableControls(pin_factory=factory, buzzer_pin=40)
    with pytest.raises(PinConfigError, match="all three"):
        TableControls(pin_factory=factory, led_blue_pin=None)
    taken = Button(27, pin_factory=factory)
    with pytest.raises(PinConfigError, match="gpio.confirm_pin = 27"):
        TableControls(pin_factory=factory)
    taken.close()
    # the failed attempt released what it had taken
    TableControls(pin_factory=factory).close()


def test_from_settings_uses_the_settings_table_and_mock_only_when_named():
    section = Settings().section("gpio")
    section.update(pin_factory="mock", light_pin="", buzzer_pin="none", hold_seconds=0.2)
    with TableControls.from_settings(section) as controls:
        assert controls.factory_name == "mock"
        assert controls.pins["scan_pin"] == 17 and controls.pins["light_pin"] is None
        assert not controls.light.fitted and not controls.buzzer.fitted
        with controls.reading():          # no light fitted: harmless
            controls.buzzer.tick()
        assert controls.hold_seconds == 0.2
    with pytest.raises(PinConfigError, match="gpio.pin_factory"):
        TableControls.from_settings({"pin_factory": "fake"})
    with pytest.raises(PinConfigError, match="gpio.bounce_ms"):
        from_settings({"pin_factory": "mock", "bounce_ms": "soon"})


def test_a_pin_left_empty_in_settings_ini_means_the_part_is_absent(tmp_path, factory):
    """settings.ini -> Settings (None for an empty pin) -> from_settings: no device, no pin taken."""
    from gpiozero import Button as GpioButton, GPIOPinInUse, PWMOutputDevice

    path = tmp_path / "settings.ini"
    path.write_text("[gpio]\nbuzzer_pin =\nconfirm_pin = none\n"
                    "led_red_pin = -\nled_green_pin =\nled_blue_pin =\n", encoding="utf-8")
    settings = Settings.load(path)
    assert settings.problems == [] and settings["gpio.buzzer_pin"] is None
    with TableControls.from_settings(settings.section("gpio"), pin_factory=factory) as controls:
        assert {k for k, v in controls.pins.items() if v is None} == {
            "buzzer_pin", "confirm_pin", "led_red_pin", "led_green_pin", "led_blue_pin"}
        assert not controls.buzzer.fitted and controls.light.fitted
        controls.buzzer.play(CHORD)          # nothing to sound: harmless
        controls.status = "fault"            # no LED: harmless
        # the pins of the absent parts are free: another device may claim them
        for number in (12, 5, 6, 13):
            PWMOutputDevice(number, pin_factory=factory).close()
        GpioButton(27, pin_factory=factory).close()
        # the fitted ones are taken
        with pytest.raises(GPIOPinInUse):
            GpioButton(17, pin_factory=factory)


def test_no_gpio_is_an_error_not_a_mock(monkeypatch):
    monkeypatch.setattr(pins_module, "REAL_FACTORIES", {
        "lgpio": "no_such_module_lgpio:Factory", "rpigpio": "no_such_module_rpi:Factory"})
    with pytest.raises(GPIOUnavailableError, match="no GPIO on this machine") as info:
        make_pin_factory("auto")
    assert isinstance(info.value, RuntimeError) and isinstance(info.value, HardwareError)
    with pytest.raises(GPIOUnavailableError):
        TableControls()
    status = detect_gpio("auto")
    assert not status.available and "touch and keyboard" in status.describe()
    assert detect_gpio("mock").available and "explicit" in detect_gpio("mock").describe()


def test_this_machine_reports_what_it_has():
    status = detect_gpio("auto")
    if not gpio_chips():  # a CI machine: no GPIO, and the report says why
        assert not status.available and "no /dev/gpiochip" in status.detail
    else:                 # on a Pi the same call finds a real factory
        assert status.available and status.factory in ("lgpio", "rpigpio")


def test_bridge_hands_button_callbacks_to_the_scheduler(controls, factory):
    handed = []
    to_ui = call_on(handed.append)
    ran = []
    controls.when_scan = to_ui(lambda: ran.append(threading.current_thread()))
    press(factory.pin(17))
    assert wait_for(lambda: handed)
    assert ran == [] and len(handed) == 1          # nothing ran on the gpio thread
    handed.pop()()                                 # the "UI loop" runs it
    assert ran == [threading.current_thread()]
