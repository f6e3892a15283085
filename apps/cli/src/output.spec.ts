import { table } from './output';

describe('CLI table', () => {
  it('pads each column to its widest cell, the header in capitals, no trailing spaces', () => {
    expect(
      table(
        ['id', 'status', 'endpoint'],
        [
          ['d1', 'Success', 'laptop'],
          ['delivery-22', 'Retry', ''],
        ],
      ),
    ).toEqual(['ID           STATUS   ENDPOINT', 'd1           Success  laptop', 'delivery-22  Retry']);
  });
});
