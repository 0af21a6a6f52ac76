import { describe, expect, it } from 'vitest';
import { CodeError } from './code-error.js';
import { HostFailure, toHostFailure, type HostFailureReason } from './host-failure.js';

const errno = (code: string): Error => Object.assign(new Error(`${code}: something`), { code });
const awsError = (name: string): Error => Object.assign(new Error(`${name} from S3`), { name });

describe('HostFailure', () => {
  it('is an IO_ERROR CodeError with reason and path in details', () => {
    const cause = new Error('root');
    const failure = new HostFailure('NotFound', 'missing', { path: 'src/a.ts', cause, details: { hostCode: 'ENOENT' } });
    expect(CodeError.isInstance(failure)).toBe(true);
    expect(failure.code).toBe('IO_ERROR');
    expect(failure.name).toBe('HostFailure');
    expect(failure.reason).toBe('NotFound');
    expect(failure.path).toBe('src/a.ts');
    expect(failure.cause).toBe(cause);
    expect(failure.details).toEqual({ reason: 'NotFound', path: 'src/a.ts', hostCode: 'ENOENT' });
  });

  it('leaves path out of details when there is none', () => {
    const failure = new HostFailure('Unavailable', 'down');
    expect(failure.path).toBeUndefined();
    expect(failure.details).toEqual({ reason: 'Unavailable' });
  });

  it('isHostFailure matches structurally (second copy) and rejects other errors', () => {
    expect(HostFailure.isHostFailure(new HostFailure('Conflict', 'x'))).toBe(true);
    const foreign = { [Symbol.for('a3s-lab.code.error')]: true, code: 'IO_ERROR', reason: 'NotFound' };
    expect(HostFailure.isHostFailure(foreign)).toBe(true);
    expect(HostFailure.isHostFailure(new CodeError('IO_ERROR', 'no reason'))).toBe(false);
    expect(HostFailure.isHostFailure({ ...foreign, code: 'TOOL_ERROR' })).toBe(false);
    expect(HostFailure.isHostFailure({ code: 'IO_ERROR', reason: 'NotFound' })).toBe(false);
    expect(HostFailure.isHostFailure(null)).toBe(false);
  });
});

describe('toHostFailure', () => {
  it.each<[string, Error, HostFailureReason, string]>([
    ['ENOENT', errno('ENOENT'), 'NotFound', 'ENOENT'],
    ['ENOTDIR', errno('ENOTDIR'), 'NotFound', 'ENOTDIR'],
    ['EACCES', errno('EACCES'), 'PermissionDenied', 'EACCES'],
    ['EPERM', errno('EPERM'), 'PermissionDenied', 'EPERM'],
    ['EROFS', errno('EROFS'), 'PermissionDenied', 'EROFS'],
    ['EEXIST', errno('EEXIST'), 'AlreadyExists', 'EEXIST'],
    ['ENOTEMPTY', errno('ENOTEMPTY'), 'Conflict', 'ENOTEMPTY'],
    ['EISDIR', errno('EISDIR'), 'Conflict', 'EISDIR'],
    ['EBUSY', errno('EBUSY'), 'Unavailable', 'EBUSY'],
    ['ENOSPC', errno('ENOSPC'), 'Unavailable', 'ENOSPC'],
    ['ECONNRESET', errno('ECONNRESET'), 'Unavailable', 'ECONNRESET'],
    ['S3 NoSuchKey (name)', awsError('NoSuchKey'), 'NotFound', 'NoSuchKey'],
    ['S3 NotFound (name)', awsError('NotFound'), 'NotFound', 'NotFound'],
    ['S3 NoSuchBucket', awsError('NoSuchBucket'), 'NotFound', 'NoSuchBucket'],
    ['S3 AccessDenied', awsError('AccessDenied'), 'PermissionDenied', 'AccessDenied'],
    ['S3 PreconditionFailed', awsError('PreconditionFailed'), 'Conflict', 'PreconditionFailed'],
    ['S3 ConditionalRequestConflict', awsError('ConditionalRequestConflict'), 'Conflict', 'ConditionalRequestConflict'],
    ['S3 SlowDown', awsError('SlowDown'), 'Unavailable', 'SlowDown'],
    ['S3 Code field (XML body)', Object.assign(new Error('x'), { Code: 'NoSuchKey' }), 'NotFound', 'NoSuchKey'],
  ])('maps %s', (_label, error, reason, hostCode) => {
    const failure = toHostFailure(error, 'dir/file.txt');
    expect(failure).toBeInstanceOf(HostFailure);
    expect(failure.reason).toBe(reason);
    expect(failure.path).toBe('dir/file.txt');
    expect(failure.message).toBe(error.message);
    expect(failure.cause).toBe(error);
    expect(failure.details).toEqual({ reason, path: 'dir/file.txt', hostCode });
  });

  it('ENOENT and S3 NoSuchKey become the same reason', () => {
    expect(toHostFailure(errno('ENOENT')).reason).toBe(toHostFailure(awsError('NoSuchKey')).reason);
  });

  it('prefers a known code over an unknown name', () => {
    expect(toHostFailure(Object.assign(new Error('x'), { code: 'EACCES' })).reason).toBe('PermissionDenied');
    expect(toHostFailure({ code: 'EWHATEVER', name: 'NoSuchKey' }).reason).toBe('NotFound');
  });

  it('maps unknown shapes to Unavailable without hostCode', () => {
    for (const value of [errno('EWEIRD'), new Error('plain'), 'text thrown', 42, null, undefined, { code: 17 }]) {
      const failure = toHostFailure(value);
      expect(failure.reason).toBe('Unavailable');
      expect(failure.details).toEqual({ reason: 'Unavailable' });
      expect(failure.cause).toBe(value);
      expect(failure.path).toBeUndefined();
    }
    expect(toHostFailure('text thrown').message).toBe('text thrown');
    expect(toHostFailure(null).message).toBe('null');
  });

  it('does not treat inherited keys as codes', () => {
    expect(toHostFailure({ code: 'toString' }).reason).toBe('Unavailable');
    expect(toHostFailure({ code: 'constructor' }).details).toEqual({ reason: 'Unavailable' });
  });

  it('returns an existing HostFailure unchanged', () => {
    const original = new HostFailure('Conflict', 'stale', { path: 'a' });
    expect(toHostFailure(original, 'other')).toBe(original);
  });
});
