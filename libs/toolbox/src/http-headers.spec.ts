import { normaliseHeaders } from './http-headers';

describe('normaliseHeaders', () => {
  it('lower-cases names, joins repeated values with ", " and leaves out absent ones', () => {
    expect(
      normaliseHeaders({
        'Content-Type': 'application/json',
        'set-cookie': ['a=1', 'b=2'],
        'X-Absent': undefined,
      }),
    ).toEqual({ 'content-type': 'application/json', 'set-cookie': 'a=1, b=2' });
  });
  it('keeps an empty value: a header sent empty was still sent', () => {
    expect(normaliseHeaders({ 'x-empty': '' })).toEqual({ 'x-empty': '' });
  });
});
