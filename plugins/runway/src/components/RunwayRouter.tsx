import { Content, Header, Page } from '@backstage/core-components';
import Box from '@mui/material/Box';
import { Route, Routes, useParams } from 'react-router-dom';
import { DeploymentsDashboard } from './dashboard/DeploymentsDashboard';
import { DeploymentDetail } from './detail/DeploymentDetail';
import { DeploymentWizard } from './wizard/DeploymentWizard';
import { ModelDetail } from './models/ModelDetail';
import { ModelForm } from './models/ModelForm';
import { StackDetail } from './stacks/StackDetail';
import { StackForm } from './stacks/StackForm';

function DetailRoute({ edit }: { edit?: boolean }) {
  const { cluster = '', namespace = '', name = '' } = useParams();
  const target = { cluster, namespace, name };
  return edit ? (
    <DeploymentWizard edit={target} />
  ) : (
    <DeploymentDetail target={target} />
  );
}

function ModelRoute({ edit }: { edit?: boolean }) {
  const { cluster = '', namespace = '', name = '' } = useParams();
  const target = { cluster, namespace, name };
  return edit ? <ModelForm edit={target} /> : <ModelDetail target={target} />;
}

function StackRoute({ edit }: { edit?: boolean }) {
  const { cluster = '', namespace = '', name = '' } = useParams();
  const target = { cluster, namespace, name };
  return edit ? <StackForm edit={target} /> : <StackDetail target={target} />;
}

/** The runway pages under the plugin's mount point. */
export function RunwayRouter() {
  return (
    <Box sx={{ p: 3 }}>
      <Routes>
        <Route path="/" element={<DeploymentsDashboard />} />
        <Route path="/deploy" element={<DeploymentWizard />} />
        <Route
          path="/deployments/:cluster/:namespace/:name"
          element={<DetailRoute />}
        />
        <Route
          path="/deployments/:cluster/:namespace/:name/edit"
          element={<DetailRoute edit />}
        />
        <Route path="/models/new" element={<ModelForm />} />
        <Route
          path="/models/:cluster/:namespace/:name"
          element={<ModelRoute />}
        />
        <Route
          path="/models/:cluster/:namespace/:name/edit"
          element={<ModelRoute edit />}
        />
        <Route path="/stacks/new" element={<StackForm />} />
        <Route
          path="/stacks/:cluster/:namespace/:name"
          element={<StackRoute />}
        />
        <Route
          path="/stacks/:cluster/:namespace/:name/edit"
          element={<StackRoute edit />}
        />
      </Routes>
    </Box>
  );
}

/** The page of the legacy frontend system, with Backstage's page header. */
export function RunwayPage() {
  return (
    <Page themeId="tool">
      <Header
        title="Runway"
        subtitle="AI inference across your Kubernetes clusters"
      />
      <Content noPadding>
        <RunwayRouter />
      </Content>
    </Page>
  );
}
