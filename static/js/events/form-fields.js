// Which of the event form's fields apply (pure): the rounds to a Swiss, the length to an
// arena, the break to rounds (not an arena), the pace and memorisation time to karuta.
export function fieldsShown(kind, choice) {
  const karuta = String(choice).startsWith("karuta-");
  return {
    rounds_total: kind === "swiss",
    minutes: kind === "arena",
    break_seconds: kind !== "arena",
    pace: karuta,
    memorise_seconds: karuta,
  };
}
