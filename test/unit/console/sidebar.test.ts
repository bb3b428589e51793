/** The console's sidebar by role (functions/console/ui/routes.tsx): who sees which entries. */
import { describe, expect, test } from '@jest/globals';
import { activeNav, navFor } from '../../../functions/console/ui/routes';

const labels = (role: Parameters<typeof navFor>[0]) => navFor(role).map((route) => route.nav);

describe('the sidebar', () => {
  test('of a marketer has the Campaigns group: templates, journeys and broadcasts', () => {
    expect(labels('marketer')).toEqual(['Home', 'Players', 'Segments', 'Templates', 'Journeys', 'Broadcasts', 'Affiliates', 'Rejections']);
    expect(
      navFor('marketer')
        .filter((route) => route.group === 'Campaigns')
        .map((route) => route.path),
    ).toEqual(['/console/templates', '/console/journeys', '/console/broadcasts']);
  });

  test('of an admin has the campaigns and the administration', () => {
    expect(labels('admin')).toEqual([
      'Home',
      'Players',
      'Segments',
      'Templates',
      'Journeys',
      'Broadcasts',
      'Affiliates',
      'Rejections',
      'Settings',
      'Users',
      'Audit log',
    ]);
  });

  test('of a viewer has no campaigns: they open a journey or its results from a link, and no entry is marked for it', () => {
    expect(labels('viewer')).toEqual(['Home', 'Players', 'Segments', 'Affiliates', 'Rejections']);
    expect(activeNav('/console/journeys/welcome', 'viewer')).toBeUndefined();
    expect(activeNav('/console/journeys/welcome', 'marketer')?.nav).toBe('Journeys');
  });

  test('marks Affiliates on the programme view and on an affiliate, both under its path', () => {
    expect(activeNav('/console/affiliates/programme', 'viewer')?.nav).toBe('Affiliates');
    expect(activeNav('/console/affiliates/aff_1', 'viewer')?.nav).toBe('Affiliates');
    expect(activeNav('/console/affiliates', 'viewer')?.nav).toBe('Affiliates');
  });
});
