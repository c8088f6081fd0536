/**
 * A float map key as sigs.k8s.io/yaml writes it: Go's strconv.FormatFloat(f, 'g', -1, 32), i.e.
 * the shortest digits that read back as the same float32, in %e form when the exponent is below
 * -4 or at least 6 (`1e+06`, `1.5e-05`), and `.inf`, `-.inf`, `.nan`.
 */
export function goFloatKey(value: number): string {
  const f = Math.fround(value);
  if (Number.isNaN(f)) return '.nan';
  if (f === Number.POSITIVE_INFINITY) return '.inf';
  if (f === Number.NEGATIVE_INFINITY) return '-.inf';
  const sign = f < 0 || Object.is(f, -0) ? '-' : '';
  if (f === 0) return `${sign}0`;
  const abs = Math.abs(f);
  let exponential = abs.toExponential(0);
  for (let digits = 1; digits <= 9; digits++) {
    exponential = abs.toExponential(digits - 1);
    if (Math.fround(Number(exponential)) === abs) break;
  }
  const [mantissa = '', exp = '0'] = exponential.split('e');
  const digits = mantissa.replace('.', '').replace(/0+$/, '') || '0';
  const e = Number(exp);
  if (e < -4 || e >= 6) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const magnitude = String(Math.abs(e)).padStart(2, '0');
    return `${sign}${digits[0]}${fraction}e${e < 0 ? '-' : '+'}${magnitude}`;
  }
  const point = e + 1; // digits before the decimal point
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
