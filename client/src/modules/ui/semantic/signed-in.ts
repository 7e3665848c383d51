// Semantic UI's stylesheets for the signed-in frame and its screens and dialogs, loaded with it
// (modules/layout/components/Layout.tsx); ./first-screen.ts has the rest. In Semantic UI's own
// order, after the first screen's. A screen that uses another Semantic UI component adds it here.
import 'semantic-ui-css/components/container.min.css';
import 'semantic-ui-css/components/divider.min.css';
import 'semantic-ui-css/components/list.min.css';
import 'semantic-ui-css/components/breadcrumb.min.css';
import 'semantic-ui-css/components/grid.min.css';
import 'semantic-ui-css/components/menu.min.css';
import 'semantic-ui-css/components/table.min.css';
import 'semantic-ui-css/components/card.min.css';
import 'semantic-ui-css/components/comment.min.css';
import 'semantic-ui-css/components/item.min.css';
import 'semantic-ui-css/components/statistic.min.css';
import 'semantic-ui-css/components/checkbox.min.css';
import 'semantic-ui-css/components/dimmer.min.css';
import 'semantic-ui-css/components/dropdown.min.css';
import 'semantic-ui-css/components/modal.min.css';
import 'semantic-ui-css/components/popup.min.css';
import 'semantic-ui-css/components/progress.min.css';
import 'semantic-ui-css/components/sidebar.min.css';
import 'semantic-ui-css/components/transition.min.css';
