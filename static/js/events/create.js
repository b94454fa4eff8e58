// The event form: the start time is typed in the device's time zone (tell the server its
// offset), and only the fields that apply to the chosen format and game are shown (the
// others keep their values and the server ignores them).
import { fieldsShown } from "./form-fields.js";

const form = document.getElementById("event-form");
const offset = form?.querySelector('input[name="tz_offset"]');
if (offset) offset.value = String(new Date().getTimezoneOffset());

function update() {
  const shown = fieldsShown(form.elements.kind.value, form.elements.choice.value);
  for (const [name, visible] of Object.entries(shown)) {
    const field = form.elements[name]?.closest(".field");
    if (field) field.hidden = !visible;
  }
}

if (form) {
  form.elements.kind.addEventListener("change", update);
  form.elements.choice.addEventListener("change", update);
  update();
}
