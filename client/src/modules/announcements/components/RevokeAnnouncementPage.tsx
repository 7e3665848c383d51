import { AnnouncementDetailScreen } from './AnnouncementDetailPage';

/**
 * SPEC §2 revoke-announcement: `/announcement-management/revoke-announcement?open=<id>` shows the
 * announcement's detail and asks the revoke confirmation at once (SPEC §4 "revoking asks
 * confirmation"); either answer leaves the person on the detail route.
 */
export default function RevokeAnnouncementPage() {
  return <AnnouncementDetailScreen confirmRevoke />;
}
