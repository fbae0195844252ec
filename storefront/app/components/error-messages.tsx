/** Messages from a refused action, announced to screen readers. */
export function ErrorMessages({ errors, id }: { errors: readonly string[] | undefined; id?: string }) {
  if (!errors?.length) return null;
  return (
    <div className="alert alert-error" role="alert" id={id}>
      {errors.length === 1 ? (
        <p>{errors[0]}</p>
      ) : (
        <ul>
          {errors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
