import { sentFields } from './sent-fields';

interface Row {
  name: string;
  imageId: string | null;
  capacity: number | null;
}

describe('sentFields', () => {
  it('keeps the fields sent under their row names, null included, in the order of the names', () => {
    const dto: { name?: string; image_id?: string | null; capacity?: number | null } = {
      capacity: null,
      name: 'Hike',
    };
    const changes = sentFields<typeof dto, Row>(dto, {
      name: 'name',
      image_id: 'imageId',
      capacity: 'capacity',
    });
    expect(changes).toEqual({ name: 'Hike', capacity: null });
    expect(Object.keys(changes)).toEqual(['name', 'capacity']);
  });

  it('leaves out what is absent or not named', () => {
    const dto = { name: undefined, id: 'x' } as { name?: string; id?: string };
    expect(sentFields<typeof dto, Row>(dto, { name: 'name' })).toEqual({});
  });
});
