/** A quantity field of a plain form (`quantity`): whole numbers from 1 to `max`; the server checks it again. */
export function QuantityInput({ id, max, defaultValue }: { id: string; max: number; defaultValue: number }) {
  return (
    <input
      id={id}
      name="quantity"
      type="number"
      inputMode="numeric"
      min={1}
      max={max}
      step={1}
      defaultValue={defaultValue}
      required
    />
  );
}
