// The start time is typed in the device's time zone: tell the server its offset.
const form = document.getElementById("event-form");
const offset = form?.querySelector('input[name="tz_offset"]');
if (offset) offset.value = String(new Date().getTimezoneOffset());
