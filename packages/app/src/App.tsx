import { createApp } from '@backstage/frontend-defaults';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import runwayPlugin from '@runway-portal/plugin-runway/alpha';
import { navModule } from './modules/nav';
import { homeModule } from './modules/home';
import { signInModule } from './modules/signIn';

export default createApp({
  features: [catalogPlugin, runwayPlugin, navModule, homeModule, signInModule],
});
