import { AccessRestricted } from './access-restricted';
import { SettingsHeader } from '~/components/settings/settings-header';
import { RESTRICTED_TITLE } from '~/lib/settings-access';

/** A settings screen the signed-in role may not see: its title, then 'Access Restricted' and why. */
export function RestrictedScreen({ title, message }: { title: string; message: string }) {
  return (
    <>
      <SettingsHeader title={title} />
      <AccessRestricted title={RESTRICTED_TITLE} message={message} />
    </>
  );
}
