/**
 * Exact 256-bit integer helpers of Uniswap v3 core: `FullMath.mulDiv` / `mulDivRoundingUp`
 * (contracts/libraries/FullMath.sol) and `UnsafeMath.divRoundingUp`, on bigint.
 *
 * BigInt has no phantom overflow, so the 512-bit Chinese-remainder dance of the Solidity is not
 * needed: the product is exact. What is kept is where the Solidity reverts (a zero denominator,
 * a result past uint256), because callers rely on those failures to reject impossible swaps.
 */

export const Q96 = 1n << 96n;
export const MAX_UINT128 = (1n << 128n) - 1n;
export const MAX_UINT160 = (1n << 160n) - 1n;
export const MAX_UINT256 = (1n << 256n) - 1n;
export const MIN_INT256 = -(1n << 255n);
export const MAX_INT256 = (1n << 255n) - 1n;

/** Rejects a value that the Solidity's parameter type could not hold. */
export function assertUint(value: bigint, bits: 128 | 160 | 256, name: string): void {
  if (value < 0n || value >> BigInt(bits) !== 0n) throw new RangeError(`${name} must be a uint${bits}, got ${value}`);
}

/** floor(a × b ÷ denominator); throws where FullMath.mulDiv reverts. */
export function mulDiv(a: bigint, b: bigint, denominator: bigint): bigint {
  assertUint(a, 256, 'a');
  assertUint(b, 256, 'b');
  assertUint(denominator, 256, 'denominator');
  if (denominator === 0n) throw new RangeError('mulDiv: denominator is 0');
  const result = (a * b) / denominator;
  if (result > MAX_UINT256) throw new RangeError('mulDiv: result overflows uint256');
  return result;
}

/** ceil(a × b ÷ denominator); throws where FullMath.mulDivRoundingUp reverts. */
export function mulDivRoundingUp(a: bigint, b: bigint, denominator: bigint): bigint {
  const result = mulDiv(a, b, denominator);
  if ((a * b) % denominator === 0n) return result;
  if (result === MAX_UINT256) throw new RangeError('mulDivRoundingUp: result overflows uint256');
  return result + 1n;
}

/** ceil(x ÷ y) for uint256 x and a non-zero y (UnsafeMath.divRoundingUp; its callers ensure y > 0). */
export function divRoundingUp(x: bigint, y: bigint): bigint {
  if (y === 0n) throw new RangeError('divRoundingUp: division by 0');
  return x / y + (x % y === 0n ? 0n : 1n);
}
